import { spawn } from 'node:child_process';
import { PDFDocument } from 'pdf-lib';
import { expect } from 'vitest';

/**
 * The text of a PDF as a reader gets it: poppler's `pdftotext` (poppler-utils, which .ci/run installs), in drawing
 * order (`-raw`: a line as drawn, the cells of a table row one space apart). What it returns is what a person copies
 * from the file or a search tool indexes, so a name must come back exactly as the data has it.
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const document = await PDFDocument.load(bytes);
  expect(document.getPageCount()).toBeGreaterThan(0);
  const reader = spawn('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-']);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  reader.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  reader.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const exit = new Promise<number | null>((resolve, reject) => {
    reader.on('error', reject);
    reader.on('close', resolve);
  });
  reader.stdin.end(Buffer.from(bytes));
  const code = await exit;
  expect(Buffer.concat(err).toString(), 'pdftotext').toBe('');
  expect(code).toBe(0);
  return Buffer.concat(out).toString('utf8');
}

/** The PDF's lines of text (pdfText), pages one after another, without the empty ones and page breaks. */
export async function pdfLines(bytes: Uint8Array): Promise<string[]> {
  return (await pdfText(bytes))
    .split(/[\n\f]/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');
}
