/** The constraint a unique violation hit (PostgreSQL code 23505), on pg and on PGlite alike. */
export function uniqueViolation(error: unknown): string | null {
  for (let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (e.code === '23505') return e.constraint ?? 'unique';
  }
  return null;
}

/** Whether a statement gave up waiting for a lock (`lock_timeout`, PostgreSQL code 55P03). */
export function lockNotAvailable(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (e.code === '55P03') return true;
  }
  return false;
}

/** The PostgreSQL error code of a failed statement (SQLSTATE), on pg and on PGlite alike. */
export function sqlState(error: unknown): string | null {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return null;
}
