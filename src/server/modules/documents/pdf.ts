import type { DocumentLanguage } from '../../../shared/constants/documents';
import type { DocumentPdf, Weight } from './pdf-writer';

export type { DocumentPdf, Weight } from './pdf-writer';

/** A4 in points, upright (receipts, certificates) or on its side (the statement's wide table). */
export const A4 = { portrait: [595.28, 841.89], landscape: [841.89, 595.28] } as const;

/**
 * The writer (pdf-writer.ts: pdf-lib, fontkit and the fonts) is loaded with the first document the server writes,
 * not when it starts: it was the largest part of what a start loaded, in time and in memory (docs/performance.md,
 * Start and memory), for documents a server may never be asked for. That first document waits for it once.
 */
let writer: Promise<typeof import('./pdf-writer')> | undefined;

/** A new PDF to draw on (pdf-writer.ts, documentPdf). */
export async function documentPdf(options: {
  title: string;
  lang: DocumentLanguage;
  size: readonly [number, number];
}): Promise<DocumentPdf> {
  writer ??= import('./pdf-writer');
  return (await writer).documentPdf(options);
}

/** Lines of text on A4 pages, written top to bottom; a new page starts when one is full. */
export interface TextPdf {
  /** One line at `size` points, bold when asked. */
  write(text: string, size?: number, weight?: Weight): void;
  /** Empty space before the next line, in points. */
  gap(points: number): void;
  save(): Promise<Uint8Array>;
}

const LEFT = 50;
const TOP = 790;
const BOTTOM = 60;

/** A document of lines (the receipt, the TDS certificate) on upright A4 pages. */
export async function textPdf(title: string, lang: DocumentLanguage): Promise<TextPdf> {
  const pdf = await documentPdf({ title, lang, size: A4.portrait });
  let y = TOP;
  return {
    write(text, size = 10, weight = 'regular') {
      if (y < BOTTOM) {
        pdf.addPage();
        y = TOP;
      }
      pdf.text(text, LEFT, y, size, weight);
      y -= size + 6;
    },
    gap(points) {
      y -= points;
    },
    save: pdf.save,
  };
}
