import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type/core';
import { MSG } from '../../../shared/messages';
import {
  LEAD_FILES,
  LEAD_JSON_PARTS,
  LEAD_MSG,
  type LeadFileField,
  type LeadSections,
  leadPartSchemas,
  leadTypeSchema,
} from '../../../shared/schemas/leads';
import { badRequest, HttpError, zodToHttpError } from '../../http/errors';
import { readMultipart } from '../../http/multipart';

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
  /** Removes every file this request wrote; called once the application is stored or refused. */
  discard(): Promise<void>;
}

const TEXT_PARTS = new Set<string>([...LEAD_JSON_PARTS, 'leadType']);
const isFileField = (name: string): name is LeadFileField => Object.hasOwn(LEAD_FILES, name);

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
 * Names of uploads being received or checked. They are this request's own: the caller stores the accepted ones
 * in the database (files.ts) and removes them either way; what a crash leaves is removed at the next start.
 */
const TEMP_PREFIX = 'upload-';

/**
 * Reads the multipart application: JSON text parts into `fields`, the two files into `uploadsDir` (this server's,
 * DATA_DIR/uploads) under temporary random names. Nothing here is trusted yet: the caller validates, stores or
 * refuses, then discards the temporary files. A refused, cut-off or stalled upload leaves no file behind
 * (http/multipart.ts closes every file before this rejects).
 */
export async function receiveLead(
  request: FastifyRequest,
  uploadsDir: string,
  idleTimeoutMs: number,
): Promise<ReceivedLead> {
  if (!request.isMultipart()) throw new HttpError(415, LEAD_MSG.notMultipart);
  fs.mkdirSync(uploadsDir, { recursive: true });
  const fields = new Map<string, string>();
  const files = new Map<LeadFileField, ReceivedFile>();
  const claimed = new Set<string>();
  const written: string[] = [];
  const discard = async () => {
    await Promise.all(written.map((file) => fs.promises.rm(file, { force: true })));
  };
  try {
    await readMultipart(request, {
      limits: {
        fileSize: LEAD_FILES.document.maxBytes + 1,
        files: 2,
        fields: 10,
        parts: 12,
        fieldSize: 64 * 1024,
        headerPairs: 50,
      },
      idleTimeoutMs,
      tooLarge: LEAD_MSG.requestTooLarge,
      field(name, value) {
        if (!TEXT_PARTS.has(name)) throw badRequest(LEAD_MSG.unexpectedPart(name), name);
        fields.set(name, value);
      },
      async file(name, stream, info) {
        if (!isFileField(name) || claimed.has(name)) throw badRequest(LEAD_MSG.unexpectedPart(name), name);
        claimed.add(name);
        const target = path.join(uploadsDir, `${TEMP_PREFIX}${randomBytes(16).toString('hex')}`);
        written.push(target);
        const out = fs.createWriteStream(target, { mode: 0o600 });
        let size = 0;
        try {
          await pipeline(
            stream,
            sizeGuard(name, (n) => {
              size = n;
            }),
            out,
          );
        } finally {
          // The file is closed before anyone removes it or answers the request.
          if (!out.closed) await once(out, 'close');
        }
        const mime = size === 0 ? null : ((await fileTypeFromBuffer(await readHead(target)))?.mime ?? null);
        files.set(name, { field: name, path: target, size, originalName: info.filename || name, mime });
      },
    });
  } catch (error) {
    await discard();
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

/** Parses and validates every part; errors carry `<part>.<field>` so the form can point at them. */
export function validateParts(received: ReceivedLead) {
  const missing: { msg: string; param: string }[] = LEAD_JSON_PARTS.filter(
    (part) => !received.fields.has(part),
  ).map((part) => ({
    msg: LEAD_MSG.missingPart(part),
    param: part,
  }));
  if (!received.fields.has('leadType'))
    missing.push({ msg: LEAD_MSG.missingPart('leadType'), param: 'leadType' });
  if (!received.files.get('picture')?.size) missing.push({ msg: LEAD_MSG.photoRequired, param: 'picture' });
  if (!received.files.get('document')?.size)
    missing.push({ msg: LEAD_MSG.documentRequired, param: 'document' });
  if (missing.length) throw new HttpError(400, LEAD_MSG.allRequired, missing);

  const sections: Record<string, unknown> = {};
  const errors: { msg: string; param: string }[] = [];
  for (const part of LEAD_JSON_PARTS) {
    let value: unknown;
    try {
      value = JSON.parse(received.fields.get(part)!);
    } catch {
      throw badRequest(LEAD_MSG.badJson(part), part);
    }
    const parsed = leadPartSchemas[part].safeParse(value);
    if (parsed.success) sections[part] = parsed.data;
    else
      errors.push(
        ...(zodToHttpError(parsed.error).errors ?? []).map((e) => ({ ...e, param: `${part}.${e.param}` })),
      );
  }
  const leadType = leadTypeSchema.safeParse(received.fields.get('leadType'));
  if (!leadType.success) errors.push({ msg: LEAD_MSG.invalidLeadType, param: 'leadType' });
  if (errors.length) throw new HttpError(400, MSG.validationFailed, errors);

  for (const field of Object.keys(LEAD_FILES) as LeadFileField[]) {
    const file = received.files.get(field)!;
    if (!file.mime || !(LEAD_FILES[field].mimes as readonly string[]).includes(file.mime)) {
      throw new HttpError(415, LEAD_MSG.fileType(field), [{ msg: LEAD_MSG.fileType(field), param: field }]);
    }
  }
  return { sections: sections as LeadSections, leadType: leadType.data! };
}
