// @pdf-lib/fontkit's Indic shaper (Devanagari's syllables) is compiled to a regenerator state machine that expects
// the global `regeneratorRuntime` (pdf-lib issue 1419): without it, laying out a Hindi name throws.
import 'regenerator-runtime/runtime.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A TrueType file of an installed font package, read once, with the first document (nothing is fetched). */
const fontFile = (path: string): Uint8Array => readFileSync(require.resolve(path));

/** One weight of the documents' type: Noto Sans for Latin (and ₹), Noto Sans Devanagari for Hindi names and texts. */
export interface FontFace {
  latin: Uint8Array;
  devanagari: Uint8Array;
}

/** The two weights the documents use (the packages hold more; only these are read). */
export const FONTS: { regular: FontFace; bold: FontFace } = {
  regular: {
    latin: fontFile('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
    devanagari: fontFile(
      '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf',
    ),
  },
  bold: {
    latin: fontFile('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
    devanagari: fontFile('@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf'),
  },
};
