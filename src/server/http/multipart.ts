import type { Readable } from 'node:stream';
import busboy, { type BusboyConfig, type BusboyFileStream } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import { MSG } from '../../shared/messages';
import { HttpError } from './errors';
import { assertCleanText } from './input';

export interface MultipartReader {
  limits: NonNullable<BusboyConfig['limits']>;
  /** No bytes from the client for this long: the upload is answered 408 and discarded. */
  idleTimeoutMs: number;
  /** 413 message when the part, file or field count is exceeded. */
  tooLarge: string;
  /** A text part (already checked for NUL and invalid characters). May throw an HttpError to refuse. */
  field(name: string, value: string): void;
  /**
   * A file part: must consume `stream` (its bytes arrive as they are read) and resolve once done. If the
   * upload fails, the stream is destroyed with the error, so a pipeline reading it rejects.
   */
  file(name: string, stream: BusboyFileStream, info: { filename: string; mimeType: string }): Promise<void>;
}

/** Refusals in the middle of an upload close the connection: the rest of the body is never read. */
const closing = (error: unknown) =>
  error instanceof HttpError
    ? new HttpError(error.status, error.message, error.errors, { ...error.headers, connection: 'close' })
    : error;

/** busboy's own words for a body that ends inside a part or before the closing boundary. */
const CUT_OFF = /unexpected end|terminated early/i;

export const isMultipart = (request: FastifyRequest) =>
  /^multipart\/form-data\b/i.test(String(request.headers['content-type'] ?? ''));

/**
 * Reads a `multipart/form-data` request with busboy, handing each part to the reader as it arrives. Resolves
 * once the closing boundary has been read and every file part consumed. Rejects, with every file stream
 * destroyed and every consumer settled (so no temporary file is left open), when the body is malformed
 * (400), cut off before its closing boundary (400), too large (413) or stalls (408).
 */
export function readMultipart(request: FastifyRequest, reader: MultipartReader): Promise<void> {
  return new Promise((resolve, reject) => {
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({
        headers: request.headers as BusboyConfig['headers'],
        limits: reader.limits,
        defCharset: 'utf8',
      });
    } catch {
      // No boundary, or not multipart at all.
      reject(closing(new HttpError(400, MSG.malformedUpload)));
      return;
    }
    const raw = request.raw;
    const consumers: Promise<void>[] = [];
    const streams: Readable[] = [];
    let settled = false;
    let idle: NodeJS.Timeout | undefined;

    const stop = () => {
      clearTimeout(idle);
      raw.off('data', touch);
      raw.off('close', onClose);
      raw.unpipe(parser);
    };
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      stop();
      const refusal = closing(error);
      for (const stream of streams) if (!stream.destroyed) stream.destroy(refusal as Error);
      void Promise.allSettled(consumers).then(() => reject(refusal));
    };
    function touch() {
      clearTimeout(idle);
      idle = setTimeout(() => fail(new HttpError(408, MSG.uploadStalled)), reader.idleTimeoutMs);
    }
    function onClose() {
      // The client went away before the body was complete.
      if (!raw.complete) fail(new HttpError(400, MSG.uploadCutOff));
    }

    parser.on('field', (name, value) => {
      if (settled) return;
      try {
        assertCleanText(name, 'field');
        assertCleanText(value, name);
        reader.field(name, value);
      } catch (error) {
        fail(error);
      }
    });
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      streams.push(stream);
      // busboy reports a part cut short ("terminated early") on the part's stream only; any other error
      // here is the consumer's own, passed back through the pipeline.
      stream.on('error', (error) =>
        fail(CUT_OFF.test(String((error as Error)?.message)) ? new HttpError(400, MSG.uploadCutOff) : error),
      );
      if (settled) {
        stream.resume();
        return;
      }
      try {
        assertCleanText(name, 'file');
        assertCleanText(filename ?? '', name);
      } catch (error) {
        stream.resume();
        fail(error);
        return;
      }
      consumers.push(reader.file(name, stream, { filename: filename ?? '', mimeType }).catch(fail));
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const)
      parser.on(limit, () => fail(new HttpError(413, reader.tooLarge)));
    parser.on('error', (error) => {
      const message = error instanceof Error ? error.message : '';
      fail(new HttpError(400, CUT_OFF.test(message) ? MSG.uploadCutOff : MSG.malformedUpload));
    });
    parser.on('finish', () => {
      if (settled) return;
      clearTimeout(idle);
      void Promise.all(consumers).then(() => {
        if (settled) return;
        settled = true;
        stop();
        resolve();
      }, fail);
    });

    raw.on('data', touch);
    raw.on('close', onClose);
    raw.pipe(parser);
    touch();
  });
}
