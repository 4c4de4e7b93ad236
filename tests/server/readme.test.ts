import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// What a newcomer reads first: README.md, short, with the two set-up commands on its first screen, and docs/
// whose links all lead somewhere. Each check is a function tested on a good and a bad input, so it can fail.

const ROOT = path.resolve(__dirname, '../..');
const README_MAX_LINES = 250;
/** The first screen of a terminal or a repository page: where the set-up commands must be. */
const FIRST_SCREEN_LINES = 30;
const SETUP_COMMANDS = ['npm install && npm start', 'npm test'];
const DOCS = ['architecture.md', 'api.md', 'operations.md', 'security.md', 'performance.md'];

const read = (file: string) => fs.readFileSync(file, 'utf8');
const linesOf = (text: string) => text.replace(/\n$/, '').split('\n');

/** What is wrong with a README's length and its set-up commands (each command a line of its own). */
function readmeProblems(text: string): string[] {
  const lines = linesOf(text);
  const problems: string[] = [];
  if (lines.length > README_MAX_LINES) problems.push(`${lines.length} lines, more than ${README_MAX_LINES}`);
  const firstScreen = lines.slice(0, FIRST_SCREEN_LINES).map((line) => line.trim());
  for (const command of SETUP_COMMANDS)
    if (!firstScreen.includes(command))
      problems.push(`\`${command}\` is not a line of the first ${FIRST_SCREEN_LINES}`);
  return problems;
}

/** The text outside fenced code blocks and inline code, where links and headings are markdown. */
function proseOf(markdown: string): string {
  let fenced = false;
  return linesOf(markdown)
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line.replace(/`[^`]*`/g, (code) => code.replace(/[[\]()]/g, ' '));
    })
    .join('\n');
}

/** GitHub's anchors for a file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of linesOf(markdown)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const repeats = seen.get(slug) ?? 0;
    seen.set(slug, repeats + 1);
    anchors.add(repeats ? `${slug}-${repeats}` : slug);
  }
  return anchors;
}

/** Every link target of a markdown text (inline links, images and reference definitions), outside code. */
function linksOf(markdown: string): string[] {
  const prose = proseOf(markdown);
  const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const references = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...references];
}

/**
 * The relative links of a markdown file that lead nowhere: a missing file, or an #anchor that is no heading of
 * the file it points into. Links with a scheme (https:, mailto:) and site paths (/api/docs) are not files here.
 */
function brokenLinks(file: string, markdown: string, readFile: (file: string) => string | null): string[] {
  const broken: string[] = [];
  for (const link of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('/')) continue;
    const [pathPart, anchor] = link.split('#', 2);
    const target = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
    const text = pathPart ? readFile(target) : markdown;
    if (text === null) broken.push(`${link}: no such file`);
    else if (anchor !== undefined && /\.md$/i.test(target) && !anchorsOf(text).has(anchor))
      broken.push(`${link}: no heading #${anchor}`);
  }
  return broken;
}

const readFromDisk = (file: string) =>
  fs.existsSync(file) && fs.statSync(file).isFile() ? read(file) : fs.existsSync(file) ? '' : null;

/** The environment variables a config source reads (`env.NAME`) that a README's text never names. */
function undocumentedSettings(configSource: string, readme: string): string[] {
  const read = new Set([...configSource.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
  return [...read].filter((name) => !readme.includes(`\`${name}\``)).sort();
}

describe('README.md', () => {
  const readme = read(path.join(ROOT, 'README.md'));

  it(`has at most ${README_MAX_LINES} lines and shows both set-up commands on its first screen`, () => {
    expect(readmeProblems(readme)).toEqual([]);
  });

  it('the check fails on a README too long or without either command', () => {
    const good = ['# Tierdesk', '```sh', 'npm install && npm start', 'npm test', '```'];
    expect(readmeProblems(good.join('\n'))).toEqual([]);
    const long = [...good, ...Array.from({ length: README_MAX_LINES }, () => 'more')];
    expect(readmeProblems(long.join('\n'))).toEqual([`${long.length} lines, more than ${README_MAX_LINES}`]);
    expect(readmeProblems(good.filter((l) => l !== 'npm test').join('\n'))).toEqual([
      `\`npm test\` is not a line of the first ${FIRST_SCREEN_LINES}`,
    ]);
    // In a sentence, or below the first screen, a command is not shown.
    const buried = ['Run npm install && npm start, then npm test.', ...Array(40).fill(''), ...good.slice(1)];
    expect(readmeProblems(buried.join('\n'))).toHaveLength(2);
  });

  it('names every setting the server reads in its configuration table', () => {
    const config = read(path.join(ROOT, 'src/server/config.ts'));
    expect(undocumentedSettings(config, readme)).toEqual([]);
    expect(undocumentedSettings('port: env.PORT, extra: env.NOT_DOCUMENTED_YET', readme)).toEqual([
      'NOT_DOCUMENTED_YET',
    ]);
  });

  it('links to each file of docs/', () => {
    const links = linksOf(readme);
    expect(DOCS.filter((doc) => !links.includes(`docs/${doc}`))).toEqual([]);
  });
});

describe('links of README.md and docs/', () => {
  const files = [
    path.join(ROOT, 'README.md'),
    ...fs
      .readdirSync(path.join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => path.join(ROOT, 'docs', name)),
  ];

  it('docs/ holds the newcomer documents', () => {
    expect(files.map((file) => path.relative(ROOT, file))).toEqual(
      expect.arrayContaining(DOCS.map((doc) => `docs/${doc}`)),
    );
  });

  it.each(files.map((file) => [path.relative(ROOT, file), file]))(
    'every relative link of %s resolves, anchors included',
    (_name, file) => {
      const markdown = read(file);
      expect(linksOf(markdown).length).toBeGreaterThan(0);
      expect(brokenLinks(file, markdown, readFromDisk)).toEqual([]);
    },
  );

  it('the check names a missing file, a missing heading and a missing anchor of the same file', () => {
    const files: Record<string, string> = {
      '/repo/docs/a.md': '# A\n\n## The money model\n\n## Why each technique\n',
      '/repo/README.md': '# Tierdesk\n',
    };
    const readFile = (file: string) => files[file] ?? null;
    const markdown = [
      '# Here',
      '[good](a.md#the-money-model) [good too](a.md#why-each-technique) [up](../README.md) [self](#here)',
      '[gone](missing.md) [wrong anchor](a.md#the-money) [own anchor](#nowhere)',
      '[web](https://example.com/x.md) [site path](/api/docs) `[in code](nowhere.md)`',
      '```md',
      '[in a block](nowhere-either.md)',
      '```',
      '[ref]: b.md',
    ].join('\n');
    expect(brokenLinks('/repo/docs/here.md', markdown, readFile)).toEqual([
      'missing.md: no such file',
      'a.md#the-money: no heading #the-money',
      '#nowhere: no heading #nowhere',
      'b.md: no such file',
    ]);
  });

  it("makes GitHub's anchors: punctuation and code marks dropped, repeated headings numbered", () => {
    expect([
      ...anchorsOf("# Tierdesk\n## The ledger's hot row\n### `DATA_KEY` and more\n## Tierdesk\n"),
    ]).toEqual(['tierdesk', 'the-ledgers-hot-row', 'data_key-and-more', 'tierdesk-1']);
  });
});
