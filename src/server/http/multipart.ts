import type { FastifyMultipartBaseOptions, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MSG } from '../../shared/messages';
import { HttpError } from './errors';
import { assertCleanText } from './input';

/**
 * @fastify/multipart's options, registered by the two routes' modules that take uploads (leads, imports), in their
 * own scopes: only their routes accept a multipart body. Each reader passes its own limits (busboy's). A file over
 * its size is refused by the reader's own count, with its own message, so the plugin does not throw its own.
 */
export const multipartOptions: FastifyMultipartBaseOptions = { throwFileSizeLimit: false };

export interface MultipartReader {
  limits: NonNullable<FastifyMultipartBaseOptions['limits']>;
  /** No bytes from the client for this long: the upload is answered 408 and discarded. */
  idleTimeoutMs: number;
  /** 413 message when the part, file or field count is exceeded. */
  tooLarge: string;
  /** A text part (already checked for NUL and invalid characters). May throw an HttpError to refuse. */
  field(name: string, value: string): void;
  /**
   * A file part: must consume `stream` (its bytes arrive as they are read) and resolve once done. If the
   * upload fails meanwhile (cut off, stalled), the stream is destroyed with the error, so a pipeline reading it
   * rejects.
   */
  file(
    name: string,
    stream: MultipartFile['file'],
    info: { filename: string; mimeType: string },
  ): Promise<void>;
}

/** Refusals in the middle of an upload close the connection: the rest of the body is never read. */
const closing = (error: unknown) =>
  error instanceof HttpError
    ? new HttpError(error.status, error.message, error.errors, { ...error.headers, connection: 'close' })
    : error;

/** busboy's own words for a body that ends inside a part or before the closing boundary. */
const CUT_OFF = /unexpected end|terminated early/i;
const cutOff = () => new HttpError(400, MSG.uploadCutOff);

/** What the body's reading (busboy, through the plugin) failed with, as the refusal the client gets. */
function parserRefusal(request: FastifyRequest, error: unknown, tooLarge: string): HttpError {
  const { PartsLimitError, FilesLimitError, FieldsLimitError, PrematureCloseError } =
    request.server.multipartErrors;
  if (
    error instanceof PartsLimitError ||
    error instanceof FilesLimitError ||
    error instanceof FieldsLimitError
  )
    return new HttpError(413, tooLarge);
  if (error instanceof PrematureCloseError || CUT_OFF.test(String((error as Error)?.message)))
    return cutOff();
  // No boundary, not multipart at all, a malformed part, a part named like a prototype property, a part typed
  // application/json that is not JSON.
  return new HttpError(400, MSG.malformedUpload);
}

/** What a file's consumer failed with: its own refusal, or the upload ending under it. */
function consumerRefusal(request: FastifyRequest, error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (
    error instanceof request.server.multipartErrors.PrematureCloseError ||
    (error as { code?: string })?.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    CUT_OFF.test(String((error as Error)?.message))
  )
    return cutOff();
  // The consumer's own failure (the disk): a 500.
  return error;
}

/**
 * Reads a `multipart/form-data` request part by part with @fastify/multipart (`request.parts()`), handing each to
 * the reader as it arrives: a file part is consumed before the next part is read. Resolves once the closing
 * boundary has been read and every file part consumed. Rejects, with the file being read destroyed and its consumer
 * settled (so no temporary file is left open), when the body is malformed (400), cut off before its closing
 * boundary or empty (400), too large (413) or stalls (408): the plugin has no idle timeout, so this keeps one.
 */
export async function readMultipart(request: FastifyRequest, reader: MultipartReader): Promise<void> {
  const raw = request.raw;
  let received = 0;
  let current: MultipartFile['file'] | undefined;
  let stalled: HttpError | undefined;
  let onStall: (error: HttpError) => void = () => {};
  const stall = new Promise<never>((_resolve, reject) => {
    onStall = reject;
  });
  stall.catch(() => {});
  let idle: NodeJS.Timeout | undefined;
  const touch = (chunk?: Buffer) => {
    received += chunk?.length ?? 0;
    clearTimeout(idle);
    idle = setTimeout(() => {
      stalled = new HttpError(408, MSG.uploadStalled);
      current?.destroy(stalled);
      onStall(stalled);
    }, reader.idleTimeoutMs);
  };
  // The whole body is in: what is left is the server's work, not the client's.
  const complete = () => clearTimeout(idle);

  const parts = request.parts({ limits: reader.limits, defCharset: 'utf8' });
  try {
    // The first step pipes the body into busboy; only then may the idle timer listen to it (a 'data' listener
    // added before would start the body flowing with no one to read it).
    let next = parts.next();
    raw.on('data', touch);
    raw.on('end', complete);
    touch();
    for (;;) {
      let step: Awaited<typeof next>;
      try {
        step = await Promise.race([next, stall]);
      } catch (error) {
        throw stalled ?? parserRefusal(request, error, reader.tooLarge);
      }
      if (step.done) break;
      const part = step.value;
      if (part.type === 'field') {
        // The plugin hands over a part typed application/json parsed; the readers take text.
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        assertCleanText(part.fieldname, 'field');
        assertCleanText(value, part.fieldname);
        reader.field(part.fieldname, value);
      } else {
        current = part.file;
        assertCleanText(part.fieldname, 'file');
        assertCleanText(part.filename ?? '', part.fieldname);
        try {
          await reader.file(part.fieldname, part.file, {
            filename: part.filename ?? '',
            mimeType: part.mimetype,
          });
        } catch (error) {
          throw stalled ?? consumerRefusal(request, error);
        }
        current = undefined;
      }
      next = parts.next();
    }
    // An empty body: busboy ends it as an empty form, but nothing of the upload arrived.
    if (received === 0) throw cutOff();
  } catch (error) {
    // Stop reading the body and drop the part under way (its consumer, if any, has settled).
    raw.unpipe();
    current?.destroy();
    throw closing(error);
  } finally {
    clearTimeout(idle);
    raw.off('data', touch);
    raw.off('end', complete);
  }
}
