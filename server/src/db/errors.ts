/** Recognises driver errors the same way on both dialects. */

/** True for a UNIQUE / PRIMARY KEY violation (SQLite SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY, PostgreSQL 23505). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
