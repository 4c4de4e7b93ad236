// The PDF writer behind pdf.ts, loaded with the first document a server writes (pdf.ts says why).
import fontkit from '@pdf-lib/fontkit';
import {
  beginText,
  endText,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  setFontAndSize,
  setTextMatrix,
  showText,
} from 'pdf-lib';
import type { DocumentLanguage } from '../../../shared/constants/documents';
import { FONTS } from './fonts';

export type Weight = 'regular' | 'bold';

/** Devanagari's blocks, and the joiners that shape inside its syllables: drawn with Noto Sans Devanagari. */
const DEVANAGARI = /[\u0900-\u097f\ua8e0-\ua8ff\u1cd0-\u1cff\u200c\u200d]/u;
/** What both fonts draw (spaces, digits, punctuation, ₹): it stays in the run it falls in. */
const COMMON = /[\s\p{N}\p{P}\p{S}]/u;

type Script = 'latin' | 'devanagari';
const scriptOf = (char: string): Script | undefined =>
  DEVANAGARI.test(char) ? 'devanagari' : COMMON.test(char) ? undefined : 'latin';

/** A stretch of text in one script: its text, as data, and the script whose font draws it. */
interface Run {
  text: string;
  script: Script;
}

/**
 * Text cut into runs of one script. A common character joins the run it falls in (the first run's, at the start),
 * unless that run's font lacks it and the other font has it (a narrow space before 'PM' after a Hindi name).
 */
function runsOf(text: string, has: (script: Script, char: string) => boolean): Run[] {
  const chars = Array.from(text);
  let script: Script = chars.map(scriptOf).find((s) => s !== undefined) ?? 'latin';
  const runs: Run[] = [];
  for (const char of chars) {
    const other: Script = script === 'latin' ? 'devanagari' : 'latin';
    script = scriptOf(char) ?? (!has(script, char) && has(other, char) ? other : script);
    const last = runs.at(-1);
    if (last?.script === script) last.text += char;
    else runs.push({ text: char, script });
  }
  return runs;
}

/** How many laid-out words each font keeps (a few thousand cover names, figures and every label). */
const LAYOUTS_KEPT = 20_000;

/**
 * fontkit with each font parsed once for the server's life, and the words it lays out kept: shaping a word takes
 * fontkit a good part of a millisecond, and a statement draws thousands, most of them again and again (labels, digit
 * groups, dates' words). A document still makes its own subset of the glyphs it uses when it is saved. Text reaches
 * fontkit a word at a time (wordsOf), so the kept words repeat.
 */
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type Font = ReturnType<Fontkit['create']>;
const parsedFonts = new Map<Uint8Array, Font>();
const sharedFontkit: Fontkit = {
  create(bytes) {
    let font = parsedFonts.get(bytes);
    if (!font) {
      const parsed = fontkit.create(bytes);
      const layout = parsed.layout.bind(parsed);
      const kept = new Map<string, ReturnType<Font['layout']>>();
      parsed.layout = (text, ...rest) => {
        if (rest.some((option) => option !== undefined)) return layout(text, ...rest);
        let run = kept.get(text);
        if (!run) {
          run = layout(text);
          // The oldest word goes first (a Map keeps insertion order).
          if (kept.size >= LAYOUTS_KEPT) kept.delete(kept.keys().next().value as string);
          kept.set(text, run);
        }
        return run;
      };
      keepLocaFormat(parsed);
      font = parsed;
      parsedFonts.set(bytes, font);
    }
    return font;
  },
};

/**
 * A subset's glyph offsets (its `loca` table) in the font's own format. @pdf-lib/fontkit picks the short format
 * whenever the subset is small, halving every offset, which loses glyphs stored at odd lengths: Noto Sans's are,
 * and most of its letters came out blank. Upstream fontkit fixed it the same way (its TTFSubset keeps
 * `this.font.loca.version`); this fork's encode() sets `this.loca` without a format, so the format is added as it
 * is set.
 */
function keepLocaFormat(font: Font) {
  const longOffsets = (font as unknown as { head: { indexToLocFormat: number } }).head.indexToLocFormat === 1;
  if (!longOffsets) return;
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset();
    let loca: { offsets: number[]; version?: number } | undefined;
    Object.defineProperty(subset, 'loca', {
      get: () => loca,
      set: (value: { offsets: number[]; version?: number }) => {
        loca = { ...value, version: value.version ?? 1 };
      },
    });
    return subset;
  };
}

/**
 * A run cut into words, spaces, digit groups and single signs. Shaping never joins across them (a Devanagari
 * syllable, a ligature or a conjunct lies inside a word), so a run is drawn as its words' glyphs one after another.
 */
const wordsOf = (text: string) => text.match(/[\p{L}\p{M}\u200c\u200d]+|\p{N}+|\s+|[\s\S]/gu) ?? [];

/** The code points a font draws, by its file. */
const characterSets = new Map<Uint8Array, Set<number>>();
function characterSet(bytes: Uint8Array) {
  let set = characterSets.get(bytes);
  if (!set) {
    set = new Set(sharedFontkit.create(bytes).characterSet);
    characterSets.set(bytes, set);
  }
  return set;
}

const graphemes = new Intl.Segmenter('hi', { granularity: 'grapheme' });

/** Marked content whose ActualText is the run's own text: what a reader copies or extracts, whatever the glyphs. */
const actualText = (pdf: PDFDocument, text: string) =>
  PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
    PDFName.of('Span'),
    // An inline property list: pdf-lib writes any object as an operand, though its type lists no dictionary.
    pdf.context.obj({ ActualText: PDFHexString.fromText(text) }) as unknown as PDFName,
  ]);

/** Drawing text on a document's pages; positions in points from the page's bottom left. */
export interface DocumentPdf {
  readonly lang: DocumentLanguage;
  /** The page being written. */
  readonly page: PDFPage;
  /** Starts a new page (of the document's size) and writes on it from now on. */
  addPage(): PDFPage;
  /** One line of text at (x, y), its baseline at y. */
  text(value: string, x: number, y: number, size: number, weight?: Weight): void;
  /** How wide the text is drawn. */
  width(value: string, size: number, weight?: Weight): number;
  /** The text cut to fit `width` (an ellipsis marks the cut, never inside a letter and its marks). */
  fitted(value: string, width: number, size: number, weight?: Weight): string;
  /** A horizontal rule. */
  rule(fromX: number, toX: number, y: number): void;
  save(): Promise<Uint8Array>;
}

/**
 * A PDF (pdf-lib) whose text is Unicode throughout: Latin in Noto Sans, Devanagari in Noto Sans Devanagari (each
 * run of text in its script's font, shaped by fontkit, so matras and conjuncts form), both embedded as subsets.
 * Every run is marked with its text as ActualText: fontkit reorders Devanagari's glyphs (the i-matra before its
 * consonant, a reph after it) and draws a conjunct as one glyph, which no glyph-to-character map can give back in
 * order, so a viewer or `pdftotext` reads the ActualText, the data as it is. A character neither font has is drawn
 * as `?`, and still reads back as itself.
 */
export async function documentPdf(options: {
  title: string;
  lang: DocumentLanguage;
  size: readonly [number, number];
}): Promise<DocumentPdf> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(sharedFontkit);
  pdf.setTitle(options.title);
  pdf.setLanguage(options.lang === 'hi' ? 'hi-IN' : 'en-IN');
  pdf.setProducer('Tierdesk');
  pdf.setCreator('Tierdesk');
  const embed = async (bytes: Uint8Array) => {
    const font = await pdf.embedFont(bytes, { subset: true });
    return { font, has: characterSet(bytes) };
  };
  const faces = {
    regular: { latin: await embed(FONTS.regular.latin), devanagari: await embed(FONTS.regular.devanagari) },
    bold: { latin: await embed(FONTS.bold.latin), devanagari: await embed(FONTS.bold.devanagari) },
  };
  /** The runs as drawn: each with its font and its words (a character the font lacks as '?'). */
  const drawn = (value: string, weight: Weight) => {
    const face = faces[weight];
    const has = (script: Script, char: string) => face[script].has.has(char.codePointAt(0) ?? 0);
    return runsOf(value, has).map((run) => {
      const font = face[run.script].font;
      const glyphs = Array.from(run.text, (c) => (has(run.script, c) ? c : '?')).join('');
      const words = wordsOf(glyphs);
      return {
        ...run,
        font,
        words,
        /** Width at 1 point. */
        width: words.reduce((sum, word) => sum + font.widthOfTextAtSize(word, 1), 0),
      };
    });
  };
  const width = (value: string, size: number, weight: Weight = 'regular') =>
    drawn(value, weight).reduce((sum, run) => sum + run.width * size, 0);

  /** Each page's names for the fonts it uses (its resource dictionary). */
  const fontNames = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();
  const fontName = (page: PDFPage, font: PDFFont) => {
    const names = fontNames.get(page) ?? new Map<PDFFont, PDFName>();
    fontNames.set(page, names);
    let name = names.get(font);
    if (!name) {
      name = page.node.newFontDictionary(font.name, font.ref);
      names.set(font, name);
    }
    return name;
  };

  let page = pdf.addPage([...options.size]);
  return {
    lang: options.lang,
    get page() {
      return page;
    },
    addPage() {
      page = pdf.addPage([...options.size]);
      return page;
    },
    text(value, x, y, size, weight = 'regular') {
      if (value === '') return;
      const operators = [pushGraphicsState(), beginText()];
      let at = x;
      for (const run of drawn(value, weight)) {
        operators.push(
          setFontAndSize(fontName(page, run.font), size),
          setTextMatrix(1, 0, 0, 1, at, y),
          actualText(pdf, run.text),
          // Each word's glyph ids (its subset's), as one string: '<0001002a>' less its brackets.
          showText(
            PDFHexString.of(
              run.words.map((word) => run.font.encodeText(word).toString().slice(1, -1)).join(''),
            ),
          ),
          PDFOperator.of(PDFOperatorNames.EndMarkedContent),
        );
        at += run.width * size;
      }
      operators.push(endText(), popGraphicsState());
      page.pushOperators(...operators);
    },
    width,
    fitted(value, room, size, weight = 'regular') {
      if (width(value, size, weight) <= room) return value;
      const parts = Array.from(graphemes.segment(value), (s) => s.segment);
      while (parts.length > 0 && width(`${parts.join('')}...`, size, weight) > room) parts.pop();
      return `${parts.join('')}...`;
    },
    rule(fromX, toX, y) {
      page.drawLine({ start: { x: fromX, y }, end: { x: toX, y }, thickness: 0.6 });
    },
    save: () => pdf.save(),
  };
}
