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

const inside = (target: string, folder: string) => target.startsWith(path.join(SERVER, folder) + path.sep);

describe('layering (docs/architecture.md)', () => {
  it('db/ imports no domain module', () => {
    const imports = importsOf(path.join(SERVER, 'db'));
    expect(imports.length).toBeGreaterThan(0);
    const violations = imports.filter((i) => inside(i.target, 'modules') || inside(i.target, 'demo'));
    expect(
      violations.map((v) => `${path.relative(SERVER, v.file)} -> ${path.relative(SERVER, v.target)}`),
    ).toEqual([]);
  });

  it('http/ (the guards and helpers) imports no domain module', () => {
    const imports = importsOf(path.join(SERVER, 'http'));
    expect(imports.length).toBeGreaterThan(0);
    const violations = imports.filter((i) => inside(i.target, 'modules'));
    expect(
      violations.map((v) => `${path.relative(SERVER, v.file)} -> ${path.relative(SERVER, v.target)}`),
    ).toEqual([]);
  });

  it('sees a violation when there is one (the check itself works)', () => {
    const imports = importsOf(path.join(SERVER, 'modules', 'leads'));
    expect(imports.some((i) => inside(i.target, 'modules'))).toBe(true);
  });
});
