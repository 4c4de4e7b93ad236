import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';

/** Rupees in a PDF: two decimals, Indian grouping, no currency sign (the standard fonts have no ₹). */
export const pdfRupees = (value: number) =>
  `Rs. ${value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A4 in points. */
const A4: [number, number] = [595.28, 841.89];
const TOP = 790;
const BOTTOM = 60;

/** Lines of text on A4 pages, written top to bottom; a new page starts when one is full. */
export interface TextPdf {
  /** One line at `size` points, bold when asked. */
  write(text: string, size?: number, bold?: boolean): void;
  /** Empty space before the next line, in points. */
  gap(points: number): void;
  save(): Promise<Uint8Array>;
}

/**
 * A text PDF made with pdf-lib (a kept library), for Tierdesk's documents (the TDS certificate, a sale's receipt).
 * Helvetica draws only the WinAnsi characters: any other (a name in Devanagari, ₹) is drawn as `?` rather than
 * failing the document. Saved uncompressed (`useObjectStreams: false`), so its text stays readable in the file and
 * a test (or a search tool) finds the figures.
 */
export async function textPdf(title: string): Promise<TextPdf> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer('Tierdesk');
  pdf.setCreator('Tierdesk');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const drawable = (font: PDFFont, text: string) => {
    const known = new Set(font.getCharacterSet());
    return Array.from(text, (c) => (known.has(c.codePointAt(0) ?? 0) ? c : '?')).join('');
  };
  let page = pdf.addPage(A4);
  let y = TOP;
  return {
    write(text, size = 10, strong = false) {
      if (y < BOTTOM) {
        page = pdf.addPage(A4);
        y = TOP;
      }
      const font = strong ? bold : regular;
      page.drawText(drawable(font, text), { x: 50, y, size, font });
      y -= size + 6;
    },
    gap(points) {
      y -= points;
    },
    save: () => pdf.save({ useObjectStreams: false }),
  };
}
