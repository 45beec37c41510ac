/** True for PostgreSQL's unique_violation (23505), from pg or PGlite alike. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}
