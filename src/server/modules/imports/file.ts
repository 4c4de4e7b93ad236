import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import type { FastifyRequest } from 'fastify';
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_CELLS,
  IMPORT_MODES,
  IMPORT_MSG,
  type ImportKind,
  type ImportMode,
  type ImportRowError,
} from '../../../shared/schemas/imports';
import { badRequest, HttpError } from '../../http/errors';
import { readMultipart } from '../../http/multipart';

/** What `POST import/<kind>` was sent: the file is a temporary file of this request, never held in memory. */
export interface ReceivedImport {
  fileName: string;
  /** The temporary file in the uploads directory (the caller stores it, then calls `discard`). */
  path: string;
  size: number;
  dryRun: boolean;
  mode: ImportMode;
  /** Removes the temporary file; what a crash leaves is removed at the next start (leads' bringInUploads). */
  discard(): Promise<void>;
}

/**
 * One data row of a file: its number as a spreadsheet shows it (the header is row 1) and its cells by column.
 * A row whose shape is wrong (its cell count, a cell too long) carries its `errors` instead of its cells: it is
 * refused without being judged, and none of its text is kept.
 */
export interface CsvRow {
  row: number;
  cells: Record<string, string>;
  errors?: ImportRowError[];
}

const fileError = (message: string) => badRequest(message, 'file');

/** Names of imports being received: this request's own, like the applications' uploads beside them. */
const TEMP_PREFIX = 'upload-';

/**
 * Reads the multipart body: the file streamed to a temporary file in `uploadsDir` (at most IMPORT_MAX_BYTES),
 * `dryRun` and `mode`. A refused, cut-off or stalled upload leaves no file behind.
 */
export async function receiveImport(
  request: FastifyRequest,
  uploadsDir: string,
  idleTimeoutMs: number,
): Promise<ReceivedImport> {
  const fields = new Map<string, string>();
  let file: { name: string; size: number } | undefined;
  fs.mkdirSync(uploadsDir, { recursive: true });
  const target = path.join(uploadsDir, `${TEMP_PREFIX}${randomBytes(16).toString('hex')}`);
  const discard = () => fs.promises.rm(target, { force: true });
  try {
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
        if (name !== 'file') throw fileError(IMPORT_MSG.fileMissing);
        let size = 0;
        await pipeline(
          stream,
          new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              size += chunk.length;
              if (size > IMPORT_MAX_BYTES) callback(new HttpError(400, IMPORT_MSG.tooLarge));
              else callback(null, chunk);
            },
          }),
          fs.createWriteStream(target, { flags: 'wx' }),
        );
        file = { name: info.filename, size };
      },
    });
    const dryRunText = (fields.get('dryRun') ?? 'true').trim().toLowerCase();
    if (dryRunText !== 'true' && dryRunText !== 'false') throw badRequest(IMPORT_MSG.invalidDryRun, 'dryRun');
    const mode = (fields.get('mode') ?? 'create').trim().toLowerCase();
    if (!(IMPORT_MODES as readonly string[]).includes(mode)) throw badRequest(IMPORT_MSG.invalidMode, 'mode');
    if (!file) throw fileError(IMPORT_MSG.fileMissing);
    if (file.size === 0) throw fileError(IMPORT_MSG.empty);
    return {
      fileName: file.name.slice(0, 200),
      path: target,
      size: file.size,
      dryRun: dryRunText === 'true',
      mode: mode as ImportMode,
      discard,
    };
  } catch (error) {
    await discard();
    throw error;
  }
}

/** Control characters a text file never holds (tab, line feed and carriage return are text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The most bytes csv-parse is given at once: a stored file's chunk is cut, so no one parse holds the loop long. */
const PARSE_SLICE_BYTES = 64 * 1024;
/** How much of the first line is kept to judge its delimiter. */
const FIRST_LINE_CHARS = 64 * 1024;

/**
 * The file's bytes as text, checked as they pass (passed on as they came, in slices): refused (400, one message)
 * when UTF-16, binary or not UTF-8. It also keeps what the reader needs of the whole text: whether any of it is
 * more than blanks, and the first line.
 */
function textChecker() {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let head = Buffer.alloc(0);
  let firstLine = '';
  let firstLineDone = false;
  const state = { sawText: false, firstLine: () => firstLine };
  const check = (text: string) => {
    if (CONTROL.test(text)) throw fileError(IMPORT_MSG.binary);
    if (!state.sawText && /\S/.test(text)) state.sawText = true;
    if (!firstLineDone) {
      const end = text.search(/\r?\n/);
      firstLine = (firstLine + (end === -1 ? text : text.slice(0, end))).slice(0, FIRST_LINE_CHARS);
      firstLineDone = end !== -1 || firstLine.length >= FIRST_LINE_CHARS;
    }
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        if (head.length < 64) head = Buffer.concat([head, chunk.subarray(0, 64 - head.length)]);
        if (
          head.length >= 2 &&
          ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))
        )
          throw fileError(IMPORT_MSG.utf16);
        if (chunk.includes(0)) {
          // UTF-16 without a mark: ASCII text with every other byte NUL.
          let nuls = 0;
          for (const byte of head) if (byte === 0) nuls++;
          throw fileError(nuls * 2 >= head.length - 1 && nuls > 0 ? IMPORT_MSG.utf16 : IMPORT_MSG.binary);
        }
        let text: string;
        try {
          text = decoder.decode(chunk, { stream: true });
        } catch {
          throw fileError(IMPORT_MSG.binary);
        }
        check(text);
        for (let at = 0; at < chunk.length; at += PARSE_SLICE_BYTES)
          this.push(chunk.subarray(at, at + PARSE_SLICE_BYTES));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback) {
      try {
        check(decoder.decode());
        callback();
      } catch (error) {
        callback(error instanceof HttpError ? error : fileError(IMPORT_MSG.binary));
      }
    },
  });
  return { stream, state };
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const BOM = [0xef, 0xbb, 0xbf];
/**
 * The bytes of a cell passed on whole: past them, a cell has more than IMPORT_MAX_CELL_CHARS characters whatever
 * they are (a character is at most 4 bytes, an escaped quote 2).
 */
const CELL_BYTES = 8 * 1024;

/**
 * Keeps csv-parse from building what the import refuses anyway: csv-parse keeps every cell of a record until its
 * end, whole, so a 50 MB line of commas is 25 million cells (more than 1 GB, and seconds of the event loop), and its
 * own `max_record_size` refuses the whole file instead of one row. This reads the bytes as csv-parse will (quote
 * `"`, escaped as `""`; cells split by `,`; records by the first of CRLF, LF or CR found outside quotes, as its
 * auto-discovery decides) and leaves out a record's cells after its 65th, and a cell's bytes after its first
 * CELL_BYTES: the row keeps its row error (more than IMPORT_MAX_CELLS cells, a cell of more than
 * IMPORT_MAX_CELL_CHARS characters) and nothing else of it is kept. Left-out cells become one quoted cell, and each
 * left-out part keeps its line breaks, so csv-parse counts the file's lines as before (its refusals name them).
 * Where a left-out part is not valid CSV, a stray quote there makes csv-parse refuse the file at that line, as it
 * would have (or at an earlier one first, should it find one in what it reads).
 */
function csvBounds() {
  let delimiter: 'crlf' | 'lf' | 'cr' | undefined;
  let inQuotes = false;
  /** Inside quotes, a quote: the cell's end, or the first of an escaped pair; the next byte says which. */
  let quoteSeen = false;
  /** Just after a quoted cell's closing quote: a separator or the record's end must follow. */
  let closed = false;
  let cellBytes = 0;
  let separators = 0;
  /** Past the record's 65th cell: its bytes are left out, but for their line breaks. */
  let dropping = false;
  /** Past a cell's first CELL_BYTES: the rest of the cell is left out, but for its line breaks. */
  let trimming = false;
  /** A CR outside quotes whose meaning the next byte decides (the first line break, or a CRLF). */
  let crSeen = false;
  /** Not valid CSV in a left-out part: the rest of the file is csv-parse's to refuse. */
  let invalid = false;
  let offset = 0;
  const QUOTED = Buffer.from('"');

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (invalid) return callback();
      const out: Buffer[] = [];
      let emitFrom = 0;
      /** Line breaks of a left-out part, kept in one piece a chunk. */
      let breaks: Buffer | undefined;
      let kept = 0;
      const keepBreaks = () => {
        if (breaks && kept) out.push(breaks.subarray(0, kept));
        breaks = undefined;
        kept = 0;
      };
      const contentBreak = (byte: number) => {
        if (!dropping && !trimming) return;
        breaks ??= Buffer.allocUnsafe(chunk.length);
        breaks[kept++] = byte;
      };
      /** Passes bytes on again from `from`, after what was left out (and the closing `quote` it held back). */
      const resume = (from: number, quote = false) => {
        keepBreaks();
        if (quote) out.push(QUOTED);
        emitFrom = from;
        trimming = false;
      };
      /** The record ended with the line break `breakBytes`, whose last byte is at `end` (-1: the chunk before). */
      const recordEnd = (end: number, breakBytes: string) => {
        if (dropping || trimming) {
          resume(end + 1, dropping);
          out.push(Buffer.from(breakBytes));
          dropping = false;
        }
        separators = 0;
        cellBytes = 0;
        closed = false;
      };
      /** Not valid CSV where csv-parse will not see it: a quote where none may be makes it refuse there. */
      const refuse = () => {
        keepBreaks();
        out.push(dropping ? Buffer.from('"!') : QUOTED);
        invalid = true;
      };
      for (let i = 0; i < chunk.length && !invalid; i++, offset++) {
        const byte = chunk[i];
        // A UTF-8 byte-order mark, which csv-parse drops.
        if (offset < BOM.length && offset === i && byte === BOM[offset]) continue;
        if (crSeen) {
          crSeen = false;
          if (byte === LF && delimiter !== 'lf' && delimiter !== 'cr') {
            delimiter = 'crlf';
            recordEnd(i, '\r\n');
            continue;
          }
          if (delimiter === undefined) {
            // A CR alone was the first line break: records end at CR; this byte starts the next one.
            delimiter = 'cr';
            recordEnd(i - 1, '\r');
          } else {
            // With CRLF records, a CR alone is a cell's text.
            if (dropping && closed) {
              refuse();
              break;
            }
            cellBytes++;
            contentBreak(CR);
          }
        }
        if (inQuotes) {
          cellBytes++;
          if (quoteSeen) {
            quoteSeen = false;
            if (byte === QUOTE) continue; // "" inside quotes
            // The quote before this byte closed the cell.
            inQuotes = false;
            closed = true;
            if (trimming) resume(i, true);
          } else {
            if (byte === QUOTE) quoteSeen = true;
            else {
              if (!dropping && !trimming && cellBytes > CELL_BYTES) {
                out.push(chunk.subarray(emitFrom, i));
                trimming = true;
              }
              if (byte === CR || byte === LF) contentBreak(byte);
            }
            continue;
          }
        }
        if (byte === COMMA) {
          if (trimming) resume(i);
          closed = false;
          cellBytes = 0;
          separators++;
          if (separators === IMPORT_MAX_CELLS + 1 && !dropping) {
            out.push(chunk.subarray(emitFrom, i + 1), QUOTED);
            dropping = true;
          }
          continue;
        }
        if (byte === LF && (delimiter === undefined || delimiter === 'lf')) {
          delimiter = 'lf';
          recordEnd(i, '\n');
          continue;
        }
        if (byte === CR && delimiter !== 'lf') {
          if (delimiter === 'cr') recordEnd(i, '\r');
          else crSeen = true;
          continue;
        }
        // Anything else is a cell's.
        if (!dropping && !trimming && !closed && cellBytes >= CELL_BYTES) {
          out.push(chunk.subarray(emitFrom, i));
          trimming = true;
        }
        // After a closing quote, or a quote inside an unquoted cell: not valid CSV.
        if ((dropping || trimming) && (closed || (byte === QUOTE && cellBytes > 0))) {
          refuse();
          break;
        }
        if (byte === QUOTE && cellBytes === 0) inQuotes = true;
        cellBytes++;
        if (byte === CR || byte === LF) contentBreak(byte);
      }
      if (!invalid) {
        if (dropping || trimming) keepBreaks();
        else out.push(chunk.subarray(emitFrom));
      }
      for (const part of out) if (part.length) this.push(part);
      callback();
    },
    flush(callback) {
      if (!invalid) {
        // A CR at the very end, inside a left-out part: a line break of its text, as csv-parse reads it.
        if (crSeen && delimiter === 'crlf' && (dropping || trimming)) this.push(Buffer.from('\r'));
        // Left open when the file ends inside quotes: csv-parse's own 'Quote Not Closed'.
        const open = inQuotes && !quoteSeen;
        if (dropping && !open) this.push(QUOTED);
        else if (trimming && quoteSeen) this.push(QUOTED);
      }
      callback();
    },
  });
}

/** The kind's columns in the header's order; refuses a semicolon or tab delimiter, a missing, unknown or repeated column. */
function headerColumns(kind: ImportKind, header: string[], firstLine: string): string[] {
  const count = (c: string) => firstLine.split(c).length - 1;
  if (count(';') > count(',')) throw fileError(IMPORT_MSG.semicolon);
  if (count('\t') > count(',')) throw fileError(IMPORT_MSG.tab);
  const expected = IMPORT_COLUMNS[kind];
  const byLower = new Map(expected.map((column) => [column.toLowerCase(), column]));
  const columns: string[] = [];
  for (const raw of header) {
    const cell = raw.trim();
    const column = byLower.get(cell.toLowerCase());
    if (!column) throw fileError(IMPORT_MSG.unknownColumn(cell));
    if (columns.includes(column)) throw fileError(IMPORT_MSG.repeatedColumn(column));
    columns.push(column);
  }
  for (const column of expected)
    if (!columns.includes(column)) throw fileError(IMPORT_MSG.missingColumn(column));
  return columns;
}

/** A cell the export neutralised as a formula (`'=...`) is read back as the text it was. */
const NEUTRALISED = /^'[=+\-@\t\r]/;
const cellText = (value: string) => (NEUTRALISED.test(value) ? value.slice(1) : value);

/** A data record as a row: its cells by column, or the errors of its shape. */
function rowOf(row: number, record: string[], columns: string[]): CsvRow {
  if (record.length > IMPORT_MAX_CELLS)
    return { row, cells: {}, errors: [{ row, column: '', message: IMPORT_MSG.tooManyCells }] };
  const errors: ImportRowError[] = [];
  if (record.length !== columns.length)
    errors.push({ row, column: '', message: IMPORT_MSG.cellCount(record.length, columns.length) });
  record.forEach((cell, c) => {
    if (cell.length > IMPORT_MAX_CELL_CHARS)
      errors.push({ row, column: columns[c] ?? '', message: IMPORT_MSG.cellTooLong });
  });
  if (errors.length) return { row, cells: {}, errors };
  const cells: Record<string, string> = {};
  columns.forEach((column, c) => {
    cells[column] = cellText(record[c]);
  });
  return { row, cells };
}

/**
 * The rows of a kind's file, read as a stream (csv-parse's stream API) and never held: each row is handed on as
 * it is parsed. The same reading checks the file as a whole and refuses it (400, one message) when it is empty,
 * UTF-16, binary or not UTF-8, has a semicolon or tab delimiter, a missing, unknown or repeated column, a broken
 * quoted cell, or no rows. Every cell is kept as the text it is: nothing is evaluated, whatever it starts with.
 * Rows of empty cells only are skipped; a row's number counts them (it is the spreadsheet's).
 */
export async function* importRows(kind: ImportKind, source: Readable): AsyncGenerator<CsvRow> {
  const checker = textChecker();
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: false });
  // Stopping early (a caller that has read enough) destroys the parser, which ends the whole pipeline.
  void pipeline(source, checker.stream, csvBounds(), parser).catch(() => {});
  let columns: string[] | undefined;
  let blankHeader = false;
  let record = 0;
  let rows = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      record++;
      if (record === 1) {
        // A first line of blanks: the whole file may be blanks, which is said as such once it is read.
        if (cells.every((cell) => cell.trim() === '')) blankHeader = true;
        else columns = headerColumns(kind, cells, checker.state.firstLine());
        continue;
      }
      if (!columns || cells.every((cell) => cell.trim() === '')) continue;
      rows++;
      yield rowOf(record, cells, columns);
    }
  } catch (error) {
    if (error instanceof CsvError)
      throw fileError(IMPORT_MSG.malformed(Number((error as { lines?: number }).lines ?? 1)));
    throw error;
  }
  if (!checker.state.sawText) throw fileError(IMPORT_MSG.empty);
  if (blankHeader) headerColumns(kind, [''], checker.state.firstLine());
  if (rows === 0) throw fileError(IMPORT_MSG.noRows);
}

/**
 * The first pass over a file: checks it (see `importRows`) and counts its rows without keeping any, stopping at
 * `maxRows + 1`: a file with more is refused (400) before any row is judged.
 */
export async function countImportRows(kind: ImportKind, source: Readable, maxRows: number): Promise<number> {
  let rows = 0;
  for await (const _row of importRows(kind, source)) {
    rows++;
    if (rows > maxRows) throw fileError(IMPORT_MSG.tooManyRows(maxRows));
  }
  return rows;
}

/** A template: the header row and one example row, as CSV. */
export function csvLine(cells: string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',');
}
