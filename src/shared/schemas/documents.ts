import { z } from 'zod';
import { DOCUMENT_LANGUAGES, DOCUMENT_MSG } from '../constants/documents';

export { DOCUMENT_LANGUAGES, DOCUMENT_MSG, type DocumentLanguage } from '../constants/documents';

/**
 * `lang=en|hi` on the document routes (a sale's receipt, a statement, a TDS certificate): the language the document
 * is written in, English when left out.
 */
export const documentLanguageField = z
  .enum(DOCUMENT_LANGUAGES, { error: DOCUMENT_MSG.language })
  .default('en');
