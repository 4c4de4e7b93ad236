import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type/core';
import { LEAD_FILES, LEAD_JSON_PARTS, LEAD_MSG, type LeadFileField } from '../../../shared/schemas/leads';
import { badRequest, HttpError } from '../../http/errors';

export interface ReceivedFile {
  field: LeadFileField;
  path: string;
  size: number;
  originalName: string;
  /** Decided from the bytes (file-type); null when the bytes match no known type. */
  mime: string | null;
}

export interface ReceivedLead {
  fields: Map<string, string>;
  files: Map<LeadFileField, ReceivedFile>;
  /** Removes every file this request wrote; called on any refusal. */
  discard(): Promise<void>;
}

const TEXT_PARTS = new Set<string>([...LEAD_JSON_PARTS, 'leadType']);
const isFileField = (name: string): name is LeadFileField => name in LEAD_FILES;

/** Counts bytes as they stream and stops the upload as soon as the field's limit is passed. */
function sizeGuard(field: LeadFileField, onBytes: (n: number) => void) {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      onBytes(total);
      if (total > LEAD_FILES[field].maxBytes) callback(new HttpError(413, LEAD_MSG.fileTooLarge(field)));
      else callback(null, chunk);
    },
  });
}

/**
 * Reads the multipart application: JSON text parts into `fields`, the two files into `uploadsDir` under
 * random names. Nothing here is trusted yet: the caller validates, then keeps or discards the files.
 */
export async function receiveLead(request: FastifyRequest, uploadsDir: string): Promise<ReceivedLead> {
  if (!request.isMultipart()) throw new HttpError(415, LEAD_MSG.notMultipart);
  fs.mkdirSync(uploadsDir, { recursive: true });
  const fields = new Map<string, string>();
  const files = new Map<LeadFileField, ReceivedFile>();
  const written: string[] = [];
  const writers: fs.WriteStream[] = [];
  const discard = async () => {
    // pipeline() rejects as soon as the size guard refuses, while the destroyed write stream may still be
    // opening its file; removing it first let the late open re-create it (an empty file left in uploads).
    await Promise.all(writers.map((writer) => finished(writer).catch(() => {})));
    await Promise.all(written.map((file) => fs.promises.rm(file, { force: true })));
  };
  let currentFile: LeadFileField | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (!TEXT_PARTS.has(part.fieldname))
          throw badRequest(LEAD_MSG.unexpectedPart(part.fieldname), part.fieldname);
        fields.set(part.fieldname, String(part.value));
        continue;
      }
      const field = part.fieldname;
      if (!isFileField(field) || files.has(field)) {
        part.file.resume();
        throw badRequest(LEAD_MSG.unexpectedPart(field), field);
      }
      currentFile = field;
      const target = path.join(uploadsDir, `upload-${randomBytes(16).toString('hex')}`);
      written.push(target);
      const writer = fs.createWriteStream(target, { mode: 0o600 });
      writers.push(writer);
      let size = 0;
      await pipeline(
        part.file,
        sizeGuard(field, (n) => {
          size = n;
        }),
        writer,
      );
      if (size === 0) {
        files.set(field, { field, path: target, size, originalName: part.filename, mime: null });
        continue;
      }
      const detected = await fileTypeFromBuffer(await readHead(target));
      files.set(field, {
        field,
        path: target,
        size,
        originalName: part.filename || field,
        mime: detected?.mime ?? null,
      });
    }
  } catch (error) {
    await discard();
    const code = (error as { code?: string }).code;
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new HttpError(413, LEAD_MSG.requestTooLarge);
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new HttpError(415, LEAD_MSG.notMultipart);
    // The multipart plugin's own cap (just above the larger file limit) ends an upload the same way.
    if (code === 'FST_REQ_FILE_TOO_LARGE' && currentFile)
      throw new HttpError(413, LEAD_MSG.fileTooLarge(currentFile));
    throw error;
  }
  return { fields, files, discard };
}

/** The first bytes of a file: enough for file-type to recognise every format it knows. */
async function readHead(file: string): Promise<Uint8Array> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(4100);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Moves an accepted upload to its permanent random name; returns that name (relative to uploadsDir). */
export async function keepFile(file: ReceivedFile, uploadsDir: string): Promise<string> {
  const name = randomBytes(16).toString('hex');
  await fs.promises.rename(file.path, path.join(uploadsDir, name));
  return name;
}
