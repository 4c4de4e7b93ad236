// `node scripts/build-server.mjs`: compiles the server (src/server and src/shared) to JavaScript in dist/server and
// dist/shared, next to the panel's dist/web, when its sources changed since the last build (or it was never built).
// `npm start` and the operator's commands run it first, then the compiled files: production runs no TypeScript
// loader. Each source file becomes one JavaScript file at the same place (a relative import names its `.js`), and
// every other file (the migrations, the embedded database's worker) is copied beside them, so what the server
// finds relative to its own files (import.meta.url) is where it was in src/. Packages stay in node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourcesHash, stampMatches } from '../src/server/sources-hash.mjs';

/** What the compiled server is made from: a change to any of these calls for a new build. */
export const SERVER_SOURCES = [
  'src/server',
  'src/shared',
  'tsconfig.json',
  'package-lock.json',
  'scripts/build-server.mjs',
];
/** Where the hash of the sources of the last build is kept. */
export const SERVER_STAMP = path.join('dist', '.server-sources');
/** The source folders under src/ compiled, each to the folder of the same name under dist/. */
const FOLDERS = ['server', 'shared'];

const isTypeScript = (file) => /\.tsx?$/.test(file) && !/\.d\.[cm]?ts$/.test(file);
const isDeclaration = (file) => /\.d\.[cm]?ts$/.test(file);

function files(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
}

/**
 * Leaves every relative import to Node, naming the compiled file: `./app` is `./app.js`, `./modules/x/index` is
 * `./modules/x/index.js`; a file that is not TypeScript (`./sources-hash.mjs`) keeps its name.
 */
const relativeImportsAsJs = {
  name: 'relative-imports-as-js',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = path.resolve(args.resolveDir, args.path);
      for (const extension of ['.ts', '.tsx'])
        if (fs.existsSync(target + extension)) return { path: `${args.path}.js`, external: true };
      if (fs.existsSync(target) && fs.statSync(target).isFile()) return { path: args.path, external: true };
      return undefined; // esbuild reports the import it cannot find
    });
  },
};

async function compile(root, outDir) {
  // A development dependency, as vite is for the panel: imported only when a build is due.
  const { build } = await import('esbuild');
  const sources = FOLDERS.flatMap((folder) => files(path.join(root, 'src', folder)));
  await build({
    absWorkingDir: root,
    entryPoints: sources.filter(isTypeScript),
    outbase: path.join(root, 'src'),
    outdir: outDir,
    bundle: true,
    packages: 'external',
    plugins: [relativeImportsAsJs],
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    logLevel: 'error',
  });
  for (const file of sources.filter((file) => !isTypeScript(file) && !isDeclaration(file))) {
    const copy = path.join(outDir, path.relative(path.join(root, 'src'), file));
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(file, copy);
  }
}

/**
 * Builds the server when its sources changed since the last build. The new files are compiled aside and then put
 * in place of the old ones, so a failed build leaves the last good one. Returns whether it built.
 */
export async function ensureServerBuilt(root, log = console.log) {
  const hash = sourcesHash(root, SERVER_SOURCES);
  const built = FOLDERS.every((folder) => fs.existsSync(path.join(root, 'dist', folder)));
  if (built && stampMatches(root, SERVER_STAMP, hash)) return false;
  log('Building the server (its sources changed since the last build)...');
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  const staging = fs.mkdtempSync(path.join(root, 'dist', '.server-build-'));
  try {
    await compile(root, staging);
    for (const folder of FOLDERS) {
      const target = path.join(root, 'dist', folder);
      const old = `${staging}-old-${folder}`;
      if (fs.existsSync(target)) fs.renameSync(target, old);
      fs.renameSync(path.join(staging, folder), target);
      fs.rmSync(old, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(root, SERVER_STAMP), `${hash}\n`);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  ensureServerBuilt(root).catch((error) => {
    // esbuild has printed what it could not compile, file and line.
    console.error(
      `The server build failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
    );
    process.exit(1);
  });
}
