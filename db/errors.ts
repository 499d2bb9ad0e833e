// What a failed database call means to its caller: a duplicate it answers with a conflict, or a
// database it cannot reach (answered 503). Edge-safe: plain checks on the error, no driver import.

/** True for errors that mean the database cannot be reached (as opposed to a bad query). */
export function isDbUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const { code, message } = e as { code?: unknown; message?: unknown };
    const text = `${String(code ?? '')} ${String(message ?? '')}`;
    if (
      /SQLITE_(CANTOPEN|BUSY|LOCKED|IOERR|NOTADB|READONLY)|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|fetch failed|SERVER_ERROR|HRANA_WEBSOCKET|database is locked|unable to open database|CLIENT_CLOSED|Network connection lost/i.test(
        text,
      )
    ) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether `err` (or drizzle's wrapper around it) is a UNIQUE or primary-key constraint failing: a
 * duplicate the caller answers with a conflict or retries with another value. The one copy for
 * db/queries and the handlers; another constraint (NOT NULL, a foreign key) is not a duplicate.
 */
export function isUniqueViolation(err: unknown): boolean {
  return /UNIQUE constraint failed|SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)/i.test(
    `${String(err)} ${String((err as { cause?: unknown } | null)?.cause)}`,
  );
}
