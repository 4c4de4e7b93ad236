// Documents (issue 52): the languages a receipt, statement or TDS certificate is written in, and the refusal of
// another, without zod (schemas/documents.ts re-exports them).

/** A document's languages: the panel's (English, the seed's texts, and Hindi). */
export const DOCUMENT_LANGUAGES = ['en', 'hi'] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number];

export const DOCUMENT_MSG = {
  language: 'lang must be en or hi',
} as const;
