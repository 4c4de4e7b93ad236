import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import { expect } from 'vitest';

/**
 * The strings a PDF draws, in drawing order, read back with pdf-lib (which cannot extract text itself): each page's
 * content streams inflated, their text operators (`<hex> Tj`, `(text) Tj`) decoded.
 */
export async function pdfStrings(bytes: Uint8Array): Promise<{ pages: number; strings: string[] }> {
  const document = await PDFDocument.load(bytes);
  const strings: string[] = [];
  for (const page of document.getPages()) {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    for (const ref of streams) {
      const stream = document.context.lookup(ref) as PDFRawStream;
      const raw = Buffer.from(stream.getContents());
      const data = stream.dict.get(PDFName.of('Filter')) ? inflateSync(raw) : raw;
      for (const m of data.toString('latin1').matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\((.*?)\)\s*Tj/g))
        strings.push(m[1] !== undefined ? Buffer.from(m[1], 'hex').toString('latin1') : m[2]);
    }
  }
  return { pages: document.getPageCount(), strings };
}

/** The text a PDF draws, one string a line, after checking that it has a page. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { pages, strings } = await pdfStrings(bytes);
  expect(pages).toBeGreaterThan(0);
  return strings.join('\n');
}
