import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The rules hold for src/server. The server's own tests may reach a module's inner files (a posting at a chosen
// time, a job run by hand); the benches reach src/server's modules through their faces as a module does, except
// seed:scale's bulk load (BENCH_BULK_LOAD).

const SERVER = path.resolve(__dirname, '../../src/server');
const BENCH = path.resolve(__dirname, '../bench');

/**
 * The names an import or re-export clause brings in (`{ a, type b, c as d }` -> a, b, c; a default import ->
 * default; `* as x` or `export *` -> *).
 */
function namesOf(clause: string): string[] {
  const names: string[] = [];
  const braces = /\{([^}]*)\}/.exec(clause);
  if (braces)
    for (const part of braces[1].split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (name) names.push(name);
    }
  const outside = clause.replace(/\{[^}]*\}/, '').replace(/^\s*(import|export)\s+(type\s+)?/, '');
  if (outside.includes('*')) names.push('*');
  else if (/^\s*[\w$]+/.test(outside)) names.push('default');
  return names;
}

/** Every `import ... from '<spec>'` (and `export ... from`) of the TypeScript files under a folder, with its names. */
function importsOf(folder: string): Import[] {
  const found: Import[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|mjs)$/.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        for (const match of text.matchAll(
          /((?:import|export)\s[^'"]*?)from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g,
        )) {
          const spec = match[2] ?? match[3];
          if (spec.startsWith('.'))
            found.push({
              file: full,
              target: path.resolve(path.dirname(full), spec),
              names: match[1] === undefined ? ['*'] : namesOf(match[1]),
            });
        }
      }
    }
  };
  walk(folder);
  return found;
}

type Import = { file: string; target: string; names: string[] };

const ROOT = path.resolve(SERVER, '../..');
const inside = (target: string, folder: string) => target.startsWith(path.join(SERVER, folder) + path.sep);
/** A file as the rules name it: relative to src/server when under it, else to the repository. */
const named = (file: string) => path.relative(file.startsWith(SERVER + path.sep) ? SERVER : ROOT, file);
const shown = (imports: Import[]) => imports.map((v) => `${named(v.file)} -> ${named(v.target)}`);

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

const LEDGER_FACE = path.join(MODULES, 'ledger', 'index.ts');
/**
 * The ledger's write primitives: the wallet lock that hands back what to post with, the write, a posting chained and
 * sealed by hand, and the bulk loaders. Other modules move money through the ledger's commands (payoutIn, adjustIn,
 * creditCommissions, ...), so only the ledger's own files name these.
 */
const LEDGER_WRITES = ['lockWallets', 'writePostings', 'post', 'chainPosting', 'loadPostings', 'loadWallets'];

/** Imports naming a ledger write primitive from a file outside the ledger (through its face or past it). */
const ledgerWritesOutside = (imports: Import[]) =>
  imports.filter(
    (i) =>
      moduleOf(i.target) === 'ledger' &&
      moduleOf(i.file) !== 'ledger' &&
      i.names.some((name) => LEDGER_WRITES.includes(name)),
  );

/** What the ledger's face re-exports of its write primitives (or everything, by `export *`). */
const faceWrites = (imports: Import[]) =>
  imports
    .filter((i) => i.file === LEDGER_FACE)
    .flatMap((i) => i.names)
    .filter((name) => name === '*' || LEDGER_WRITES.includes(name));

/**
 * seed:scale's bulk load (tests/bench/scale.ts): a year of postings built by the ledger's own chainPosting and
 * loaded in bulk, not one command at a time. The one import past a face the benches make, and of these names only.
 */
const BENCH_BULK_LOAD = {
  file: path.join(ROOT, 'tests', 'bench', 'scale.ts'),
  target: path.join(MODULES, 'ledger', 'ledger'),
  names: [
    'chainPosting',
    'loadPostings',
    'loadWallets',
    'rebuildNetworkMoney',
    'rebuildPostingTotals',
    'LockedWallet',
    'PostingDraft',
    'PostingRow',
  ],
};
const bulkLoad = (i: Import) =>
  i.file === BENCH_BULK_LOAD.file &&
  i.target === BENCH_BULK_LOAD.target &&
  i.names.every((name) => BENCH_BULK_LOAD.names.includes(name));

/** A bench's imports past a module's face or of the ledger's write primitives, but for the bulk load. */
const benchPastTheFace = (imports: Import[]) =>
  [...new Set([...pastTheFace(imports), ...ledgerWritesOutside(imports)])].filter((i) => !bulkLoad(i));

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

/** An import a test makes up, from and to files under src/server (or, from tests/..., the repository). */
const made = (file: string, target: string, names: string[] = []): Import => ({
  file: path.join(file.startsWith('tests/') ? ROOT : SERVER, file),
  target: path.join(SERVER, target),
  names,
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

  it("the ledger's write primitives are named by no module but the ledger, and its face exports none", () => {
    // The rule reads the names imported: the ledger's own files import them.
    expect(all.some((i) => moduleOf(i.file) === 'ledger' && i.names.includes('writePostings'))).toBe(true);
    expect(shown(ledgerWritesOutside(all))).toEqual([]);
    expect(all.filter((i) => i.file === LEDGER_FACE).length).toBeGreaterThan(0);
    expect(faceWrites(all)).toEqual([]);
  });

  it("the benches reach src/server's modules through their faces; only seed:scale's bulk load takes the ledger's loaders", () => {
    const bench = importsOf(BENCH);
    expect(bench.filter((i) => moduleOf(i.target) !== undefined).length).toBeGreaterThan(5);
    expect(bench.some(bulkLoad)).toBe(true);
    expect(shown(benchPastTheFace(bench))).toEqual([]);
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
    // The ledger's write primitives, through its face, from approvals and sales; a face that exports them.
    expect(
      shown(
        ledgerWritesOutside([
          ...all,
          made('modules/approvals/commands.ts', 'modules/ledger/index', ['payoutIn', 'lockWallets']),
          made('modules/sales/service.ts', 'modules/ledger/index', ['writePostings']),
        ]),
      ),
    ).toEqual([
      'modules/approvals/commands.ts -> modules/ledger/index',
      'modules/sales/service.ts -> modules/ledger/index',
    ]);
    expect(
      ledgerWritesOutside([
        made('modules/ledger/payout.ts', 'modules/ledger/ledger', ['lockWallets', 'writePostings']),
      ]),
    ).toEqual([]);
    expect(
      faceWrites([...all, made('modules/ledger/index.ts', 'modules/ledger/ledger', ['writePostings'])]),
    ).toEqual(['writePostings']);
    // A bench past a face, and the bulk load taking more than its loaders.
    expect(
      shown(
        benchPastTheFace([
          ...importsOf(BENCH),
          made('tests/bench/ledger.ts', 'modules/sales/service', ['applyProviderEvent']),
          made('tests/bench/scale.ts', 'modules/ledger/ledger', ['chainPosting', 'lockWallets']),
        ]),
      ),
    ).toEqual([
      'tests/bench/ledger.ts -> modules/sales/service',
      'tests/bench/scale.ts -> modules/ledger/ledger',
    ]);
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
