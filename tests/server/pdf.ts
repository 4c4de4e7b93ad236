import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import { expect } from 'vitest';

/** The text a PDF draws, read back with pdf-lib: each page's content streams inflated, their strings decoded. */
export async function pdfText(bytes: Buffer | Uint8Array): Promise<string> {
  const document = await PDFDocument.load(bytes);
  expect(document.getPageCount()).toBeGreaterThan(0);
  const parts: string[] = [];
  for (const page of document.getPages()) {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    for (const ref of streams) {
      const stream = document.context.lookup(ref) as PDFRawStream;
      const raw = Buffer.from(stream.getContents());
      const filtered = stream.dict.get(PDFName.of('Filter'));
      const data = filtered ? inflateSync(raw).toString('latin1') : raw.toString('latin1');
      const lines: string[] = [];
      for (const m of data.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\((.*?)\)\s*Tj/g))
        lines.push(m[1] !== undefined ? Buffer.from(m[1], 'hex').toString('latin1') : m[2]);
      parts.push(lines.join('\n'));
    }
  }
  return parts.join('\n');
}
