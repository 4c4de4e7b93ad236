import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { BUSINESS_TIME_ZONE } from '../../src/shared/dates';
import { formatDate } from '../../src/shared/format';
import { isoDay, isoTime } from '../../src/shared/schemas/dates';

// Issue 53: every date the server answers is shown in the seed's medium format, in English and in Hindi with Hindi
// month names: a moment with its time and seconds, a day alone as the medium date. The date fields are found by
// walking every schema src/shared exports (src/shared/wire.ts and src/shared/schemas/*), so a new answer's date is
// covered as soon as it is written; a text field named like a date but not one of the two date schemas fails.

const modules = {
  ...import.meta.glob<Record<string, unknown>>('../../src/shared/wire.ts', { eager: true }),
  ...import.meta.glob<Record<string, unknown>>('../../src/shared/schemas/*.ts', { eager: true }),
};

type AnySchema = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };
const isSchema = (value: unknown): value is AnySchema =>
  typeof value === 'object' &&
  value !== null &&
  '_zod' in value &&
  typeof (value as AnySchema)._zod?.def === 'object';

/** A field's name that reads as a date: createdAt, creditedOn, date, from, to. */
const DATE_NAME = /(At|On)$|^(date|from|to|day)$/;

interface Found {
  path: string;
  kind: 'time' | 'day';
}

/** The date fields of every exported schema, and the text fields named like dates that are neither kind. */
function walkAll() {
  const found: Found[] = [];
  const plainTexts: string[] = [];
  const seen = new Set<unknown>();
  const walk = (schema: AnySchema, path: string, key: string) => {
    const marker: unknown = schema;
    if (marker === isoTime || marker === isoDay) {
      found.push({ path, kind: marker === isoTime ? 'time' : 'day' });
      return;
    }
    if (seen.has(schema)) return;
    seen.add(schema);
    const def = schema._zod.def;
    const next = (child: unknown, childPath: string, childKey: string) => {
      if (isSchema(child)) walk(child, childPath, childKey);
    };
    switch (def.type) {
      case 'string':
        if (DATE_NAME.test(key)) plainTexts.push(path);
        return;
      case 'object':
        for (const [name, child] of Object.entries(def.shape as Record<string, unknown>))
          next(child, `${path}.${name}`, name);
        return;
      case 'array':
        return next(def.element, `${path}[]`, key);
      case 'nullable':
      case 'optional':
      case 'default':
      case 'readonly':
        return next(def.innerType, path, key);
      case 'union':
        for (const option of def.options as unknown[]) next(option, path, key);
        return;
      case 'record':
        return next(def.valueType, `${path}{}`, key);
      case 'pipe':
        return next(def.out, path, key);
      default:
        return;
    }
  };
  for (const [file, exports] of Object.entries(modules))
    for (const [name, value] of Object.entries(exports))
      if (isSchema(value)) {
        // A schema seen under another export is walked again under this name, so each answer lists its fields.
        seen.clear();
        walk(value, `${file.replace(/^.*\/src\/shared\//, '')}:${name}`, '');
      }
  return { found, plainTexts };
}

const { found, plainTexts } = walkAll();

/** 06:13:22 UTC is 11:43:22 in India, the moment of the issue's own example. */
const MOMENT = '2026-11-28T06:13:22.000Z';
const DAY = '2026-10-01';

describe('every date field on the wire, in the seed’s medium format (issue 53)', () => {
  it('finds the answers’ dates: moments and days, from every shared schema module', () => {
    const paths = found.map((f) => `${f.kind} ${f.path}`);
    for (const expected of [
      'time wire.ts:wireSaleSchema.confirmedAt',
      'time wire.ts:wireAuditEntrySchema.createdAt',
      'time schemas/statements.ts:statementSchema.lines[].createdAt',
      'day schemas/statements.ts:statementSchema.from',
      'day schemas/tds.ts:tdsFetchResultSchema.to',
      'day schemas/tds.ts:tdsFetchResultSchema.deductees[].creditedOn',
      'day schemas/tds.ts:tdsDepositsResultSchema.deposits[].date',
      'time schemas/books.ts:reconcileRunSchema.ranAt',
      'time schemas/imports.ts:wireImportJobSchema.createdAt',
    ])
      expect(paths).toContain(expected);
  });

  it('has no text field named like a date that is neither a moment nor a day', () => {
    expect(plainTexts).toEqual([]);
  });

  it('shows every moment with its date, time and seconds, and every day as its medium date, in English and Hindi', () => {
    for (const { path, kind } of found) {
      // As the panel shows it (the viewer in India) and as the documents do (India's time, whatever the server's).
      const show = (locale: string) =>
        formatDate(kind === 'time' ? MOMENT : DAY, { locale, timeZone: BUSINESS_TIME_ZONE });
      if (kind === 'time') {
        expect(show('en'), path).toMatch(/^Nov 28, 2026, 11:43:22\sAM$/);
        expect(show('hi'), path).toBe('28 नव॰ 2026, 11:43:22');
      } else {
        expect(show('en'), path).toBe('Oct 1, 2026');
        expect(show('hi'), path).toBe('1 अक्टू॰ 2026');
      }
    }
  });
});
