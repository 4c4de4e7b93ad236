import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(__dirname, '../../src/server');

/** Every `import ... from '<spec>'` (and `export ... from`) of the TypeScript files under a folder. */
function importsOf(folder: string): { file: string; target: string }[] {
  const found: { file: string; target: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|mjs)$/.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        for (const match of text.matchAll(
          /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g,
        )) {
          const spec = match[1] ?? match[2];
          if (spec.startsWith('.'))
            found.push({ file: full, target: path.resolve(path.dirname(full), spec) });
        }
      }
    }
  };
  walk(folder);
  return found;
}

type Import = { file: string; target: string };

const inside = (target: string, folder: string) => target.startsWith(path.join(SERVER, folder) + path.sep);
const shown = (imports: Import[]) =>
  imports.map((v) => `${path.relative(SERVER, v.file)} -> ${path.relative(SERVER, v.target)}`);

const MODULES = path.join(SERVER, 'modules');
/** The module (modules/<name>/...) a file or import target belongs to, if any. */
const moduleOf = (file: string) => {
  const relative = path.relative(MODULES, file);
  return relative.startsWith('..') ? undefined : relative.split(path.sep)[0];
};

/** Imports into db/ that reach http/ (db throws domain errors; http/errors maps them). */
const dbIntoHttp = (imports: Import[]) =>
  imports.filter((i) => inside(i.file, 'db') && inside(i.target, 'http'));

/** Imports of a module's inner files from outside it: anything not in modules/<m>/ reaches it through its index. */
const pastTheFace = (imports: Import[]) =>
  imports.filter((i) => {
    const target = moduleOf(i.target);
    return (
      target !== undefined &&
      moduleOf(i.file) !== target &&
      path.relative(MODULES, i.target) !== path.join(target, 'index')
    );
  });

/** The modules each module imports (itself left out). */
function moduleGraph(imports: Import[]) {
  const graph = new Map<string, Set<string>>();
  for (const i of imports) {
    const from = moduleOf(i.file);
    const to = moduleOf(i.target);
    if (!from || !to || from === to) continue;
    graph.set(from, (graph.get(from) ?? new Set()).add(to));
  }
  return graph;
}

/** Every cycle between modules, each as the path that closes it ('a -> b -> a'), found by depth-first search. */
function moduleCycles(imports: Import[]) {
  const graph = moduleGraph(imports);
  const cycles = new Set<string>();
  const visit = (node: string, trail: string[]) => {
    const at = trail.indexOf(node);
    if (at >= 0) {
      cycles.add([...trail.slice(at), node].join(' -> '));
      return;
    }
    for (const next of [...(graph.get(node) ?? [])].sort()) visit(next, [...trail, node]);
  };
  for (const node of [...graph.keys()].sort()) visit(node, []);
  return [...cycles];
}

/** An import a test makes up, from and to files under src/server. */
const made = (file: string, target: string): Import => ({
  file: path.join(SERVER, file),
  target: path.join(SERVER, target),
});

describe('layering (docs/architecture.md)', () => {
  const all = importsOf(SERVER);

  it('db/ imports no domain module', () => {
    const imports = importsOf(path.join(SERVER, 'db'));
    expect(imports.length).toBeGreaterThan(0);
    const violations = imports.filter((i) => inside(i.target, 'modules') || inside(i.target, 'demo'));
    expect(shown(violations)).toEqual([]);
  });

  it('db/ imports nothing of http/: it throws domain errors, which http/errors maps to statuses', () => {
    expect(all.some((i) => inside(i.file, 'db'))).toBe(true);
    expect(shown(dbIntoHttp(all))).toEqual([]);
  });

  it('http/ (the guards and helpers) imports no domain module', () => {
    const imports = importsOf(path.join(SERVER, 'http'));
    expect(imports.length).toBeGreaterThan(0);
    const violations = imports.filter((i) => inside(i.target, 'modules'));
    expect(shown(violations)).toEqual([]);
  });

  it('every module has an index.ts, and nothing outside a module imports past it', () => {
    const modules = fs.readdirSync(MODULES, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(modules.length).toBeGreaterThan(5);
    for (const m of modules) expect(fs.existsSync(path.join(MODULES, m.name, 'index.ts')), m.name).toBe(true);
    expect(all.some((i) => moduleOf(i.target) && moduleOf(i.file) !== moduleOf(i.target))).toBe(true);
    expect(shown(pastTheFace(all))).toEqual([]);
  });

  it('no two modules import each other, directly or round a longer cycle', () => {
    expect(moduleGraph(all).size).toBeGreaterThan(5);
    expect(moduleCycles(all)).toEqual([]);
  });

  it('sees a violation when there is one (the check itself works)', () => {
    const imports = importsOf(path.join(SERVER, 'modules', 'leads'));
    expect(imports.some((i) => inside(i.target, 'modules'))).toBe(true);
  });

  it('each rule sees a deliberate bad import', () => {
    const bad = {
      dbIntoHttp: made('db/named.ts', 'http/errors'),
      pastTheFace: made('modules/sales/service.ts', 'modules/ledger/ledger'),
      serverPastTheFace: made('app.ts', 'modules/sales/routes'),
      backAgain: made('modules/ledger/ledger.ts', 'modules/sales/index'),
      roundAbout: made('modules/network/scope.ts', 'modules/reports/index'),
    };
    expect(shown(dbIntoHttp([...all, bad.dbIntoHttp]))).toEqual(['db/named.ts -> http/errors']);
    expect(shown(pastTheFace([...all, bad.pastTheFace, bad.serverPastTheFace]))).toEqual([
      'modules/sales/service.ts -> modules/ledger/ledger',
      'app.ts -> modules/sales/routes',
    ]);
    // Within a module, files import each other directly.
    expect(pastTheFace([made('modules/ledger/payout.ts', 'modules/ledger/ledger')])).toEqual([]);
    // sales imports ledger: ledger importing sales closes a cycle of two.
    expect(moduleCycles([...all, bad.backAgain])).toContain('ledger -> sales -> ledger');
    // reports imports network: network importing reports closes a cycle of two as well; one of three or more
    // (account -> ledger -> network -> account) is seen too.
    expect(moduleCycles([...all, bad.roundAbout])).toContain('network -> reports -> network');
    expect(
      moduleCycles([...all, made('modules/network/money.ts', 'modules/account/index')]).some((cycle) =>
        cycle.includes('account -> ledger -> network -> account'),
      ),
    ).toBe(true);
  });
});
