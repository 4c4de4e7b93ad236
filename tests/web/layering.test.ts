import fs from 'node:fs';
import path from 'node:path';

const WEB = path.resolve(__dirname, '../../src/web');
const RESOURCES = path.join(WEB, 'resources');
const PAGES = path.join(WEB, 'pages');

/** The files the specifiers of a file's imports name: `import ... from`, `export ... from` and `import()`. */
const importsOf = (file: string, text: string): string[] =>
  [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g)]
    .map((match) => match[1] ?? match[2])
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.resolve(path.dirname(file), spec));

/** `file -> target` for every import of a page (src/web/pages) by a resource (src/web/resources). */
const pageImports = (files: { file: string; text: string }[]): string[] =>
  files
    .filter(({ file }) => file.startsWith(RESOURCES + path.sep))
    .flatMap(({ file, text }) =>
      importsOf(file, text)
        .filter((target) => target === PAGES || target.startsWith(PAGES + path.sep))
        .map((target) => `${path.relative(WEB, file)} -> ${path.relative(WEB, target)}`),
    );

const sourcesUnder = (dir: string): { file: string; text: string }[] =>
  fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && /\.tsx?$/.test(entry.name)
      ? [{ file, text: fs.readFileSync(file, 'utf8') }]
      : [];
  });

describe('panel layering (docs/architecture.md)', () => {
  it('no resource imports a page: what both use lives in forms/, lists/ or src/shared', () => {
    const files = sourcesUnder(RESOURCES);
    expect(files.length).toBeGreaterThan(15);
    expect(files.flatMap(({ file, text }) => importsOf(file, text)).length).toBeGreaterThan(0);
    expect(pageImports(files)).toEqual([]);
  });

  it('sees a resource that imports a page (the check itself works)', () => {
    const file = path.join(RESOURCES, 'leads', 'Bad.tsx');
    const text = [
      "import { formatBytes } from '../../forms/leadForm';",
      "import {\n  emptyLeadForm,\n  validateLeadForm,\n} from '../../pages/onboarding/leadForm';",
      "export { Login } from '../../pages/Login';",
      "const Dashboard = lazy(() => import('../../pages/Dashboard'));",
    ].join('\n');
    expect(pageImports([{ file, text }])).toEqual([
      'resources/leads/Bad.tsx -> pages/onboarding/leadForm',
      'resources/leads/Bad.tsx -> pages/Login',
      'resources/leads/Bad.tsx -> pages/Dashboard',
    ]);
    // A page importing a resource's parts is the allowed direction.
    expect(
      pageImports([{ file: path.join(PAGES, 'Dashboard.tsx'), text: "import x from '../resources/sales';" }]),
    ).toEqual([]);
  });
});
