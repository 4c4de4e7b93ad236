/**
 * Refusals the data layer decides (a row that is not there, a name already taken), said in the domain's words:
 * db/ knows nothing of HTTP, and http/errors.ts gives each kind its status (NotFound 404, Conflict 409).
 */
export class DomainError extends Error {
  constructor(
    message: string,
    /** The input field the refusal is about, when there is one. */
    readonly param?: string,
  ) {
    super(message);
  }
}

/** The row asked for is not there. */
export class NotFound extends DomainError {}

/** The write clashes with what is stored (a name taken, a race lost to a unique index). */
export class Conflict extends DomainError {}

/** PostgreSQL's unique_violation, whether drizzle wrapped the driver error or not. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
