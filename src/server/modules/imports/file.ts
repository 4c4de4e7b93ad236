import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import type { FastifyRequest } from 'fastify';
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_MODES,
  IMPORT_MSG,
  type ImportKind,
  type ImportMode,
} from '../../../shared/schemas/imports';
import { badRequest, HttpError } from '../../http/errors';
import { readMultipart } from '../../http/multipart';

/** What `POST import/<kind>` was sent. */
export interface ReceivedImport {
  fileName: string;
  content: Buffer;
  dryRun: boolean;
  mode: ImportMode;
}

/** One data row of a file: its number as a spreadsheet shows it (the header is row 1) and its cells by column. */
export interface CsvRow {
  row: number;
  cells: Record<string, string>;
  /** Set when the row's cell count differs from the header's. */
  cellCount?: number;
}

const fileError = (message: string) => badRequest(message, 'file');

/** Reads the multipart body: the file into memory (at most IMPORT_MAX_BYTES), `dryRun` and `mode`. */
export async function receiveImport(request: FastifyRequest, idleTimeoutMs: number): Promise<ReceivedImport> {
  const fields = new Map<string, string>();
  let file: { name: string; content: Buffer } | undefined;
  await readMultipart(request, {
    limits: {
      fileSize: IMPORT_MAX_BYTES + 1,
      files: 1,
      fields: 5,
      parts: 6,
      fieldSize: 1024,
      headerPairs: 50,
    },
    idleTimeoutMs,
    tooLarge: IMPORT_MSG.tooLarge,
    field(name, value) {
      fields.set(name, value);
    },
    async file(name, stream, info) {
      if (name !== 'file') {
        stream.resume();
        throw fileError(IMPORT_MSG.fileMissing);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      await pipeline(
        stream,
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            size += chunk.length;
            if (size > IMPORT_MAX_BYTES) callback(new HttpError(400, IMPORT_MSG.tooLarge));
            else {
              chunks.push(chunk);
              callback();
            }
          },
        }),
      );
      file = { name: info.filename, content: Buffer.concat(chunks) };
    },
  });
  const dryRunText = (fields.get('dryRun') ?? 'true').trim().toLowerCase();
  if (dryRunText !== 'true' && dryRunText !== 'false') throw badRequest(IMPORT_MSG.invalidDryRun, 'dryRun');
  const mode = (fields.get('mode') ?? 'create').trim().toLowerCase();
  if (!(IMPORT_MODES as readonly string[]).includes(mode)) throw badRequest(IMPORT_MSG.invalidMode, 'mode');
  if (!file) throw fileError(IMPORT_MSG.fileMissing);
  return {
    fileName: file.name.slice(0, 200),
    content: file.content,
    dryRun: dryRunText === 'true',
    mode: mode as ImportMode,
  };
}

/** Control characters a text file never holds (tab, line feed and carriage return are text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * The file's text, refused (400, one message) when it is empty, too large, UTF-16, binary or not UTF-8. A UTF-8
 * byte-order mark is dropped.
 */
export function fileText(content: Buffer): string {
  if (content.length === 0) throw fileError(IMPORT_MSG.empty);
  if (content.length > IMPORT_MAX_BYTES) throw fileError(IMPORT_MSG.tooLarge);
  const bom = content.subarray(0, 2);
  if ((bom[0] === 0xff && bom[1] === 0xfe) || (bom[0] === 0xfe && bom[1] === 0xff))
    throw fileError(IMPORT_MSG.utf16);
  const nul = content.indexOf(0);
  if (nul !== -1) {
    // UTF-16 without a mark: ASCII text with every other byte NUL.
    const head = content.subarray(0, 64);
    let nuls = 0;
    for (let i = 0; i < head.length; i++) if (head[i] === 0) nuls++;
    throw fileError(nuls * 2 >= head.length - 1 && nuls > 0 ? IMPORT_MSG.utf16 : IMPORT_MSG.binary);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(content);
  } catch {
    throw fileError(IMPORT_MSG.binary);
  }
  if (CONTROL.test(text)) throw fileError(IMPORT_MSG.binary);
  if (text.trim() === '') throw fileError(IMPORT_MSG.empty);
  return text;
}

/** A cell the export neutralised as a formula (`'=...`) is read back as the text it was. */
const NEUTRALISED = /^'[=+\-@\t\r]/;
const cellText = (value: string) => (NEUTRALISED.test(value) ? value.slice(1) : value);

/**
 * Judges the header row and parses the rows of a kind's file. Refuses (400, one message) a semicolon or tab
 * delimiter, a missing, unknown or repeated column, a file with no rows and a broken quoted cell. Every cell is
 * kept as the text it is: nothing is evaluated, whatever it starts with.
 */
export function parseImport(kind: ImportKind, content: Buffer): { columns: string[]; rows: CsvRow[] } {
  const text = fileText(content);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => firstLine.split(c).length - 1;
  if (count(';') > count(',')) throw fileError(IMPORT_MSG.semicolon);
  if (count('\t') > count(',')) throw fileError(IMPORT_MSG.tab);
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false });
  } catch (error) {
    throw fileError(IMPORT_MSG.malformed(Number((error as { lines?: number }).lines ?? 1)));
  }
  const expected = IMPORT_COLUMNS[kind];
  const header = (records[0] ?? []).map((cell) => cell.trim());
  const byLower = new Map(expected.map((column) => [column.toLowerCase(), column]));
  const columns: string[] = [];
  for (const cell of header) {
    const column = byLower.get(cell.toLowerCase());
    if (!column) throw fileError(IMPORT_MSG.unknownColumn(cell));
    if (columns.includes(column)) throw fileError(IMPORT_MSG.repeatedColumn(column));
    columns.push(column);
  }
  for (const column of expected)
    if (!columns.includes(column)) throw fileError(IMPORT_MSG.missingColumn(column));
  const rows: CsvRow[] = [];
  for (let i = 1; i < records.length; i++) {
    const record = records[i];
    if (record.every((cell) => cell.trim() === '')) continue;
    const cells: Record<string, string> = {};
    columns.forEach((column, c) => {
      cells[column] = cellText(record[c] ?? '');
    });
    rows.push({
      row: i + 1,
      cells,
      ...(record.length !== columns.length ? { cellCount: record.length } : {}),
    });
  }
  if (rows.length === 0) throw fileError(IMPORT_MSG.noRows);
  return { columns, rows };
}

/** A template: the header row and one example row, as CSV. */
export function csvLine(cells: string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',');
}
