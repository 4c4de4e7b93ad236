import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';

const TYPES = {
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
} as const;

/**
 * A file the server makes (a CSV, a PDF, a printable page): its type from the name's extension, the name in
 * Content-Disposition (RFC 6266: saved as an attachment unless `inline`), and the body sent as it is, text or
 * bytes, never through the JSON serializer.
 */
export function sendFile(
  reply: FastifyReply,
  name: `${string}.${keyof typeof TYPES}`,
  body: string | Uint8Array,
  disposition: 'attachment' | 'inline' = 'attachment',
) {
  const extension = name.slice(name.lastIndexOf('.') + 1) as keyof typeof TYPES;
  return reply
    .type(TYPES[extension])
    .header('content-disposition', contentDisposition(name, { type: disposition }))
    .send(typeof body === 'string' ? body : Buffer.from(body));
}
