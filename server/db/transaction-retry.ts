import { Conflict } from '../errors.ts';

/**
 * PostgreSQL's answers after which a transaction may simply run again: a serialization
 * failure (40001, repeatable read meeting a concurrent change) and a deadlock (40P01, two
 * writers waiting on each other's rows; one is chosen to fail).
 */
const RETRYABLE = new Set(['40001', '40P01']);

/** Runs of one transaction before its caller is told to try again (409). */
const ATTEMPTS = 5;

export const isRetryableConflict = (error: unknown) =>
  RETRYABLE.has((error as { code?: string } | null)?.code ?? '');

/**
 * Runs `transaction` (a whole `db.transaction().execute(...)`), and again when the database
 * refused it for a concurrent change it could not serialize; after a few refusals in a row
 * the caller gets a 409, never a 500. `transaction` must be safe to run again: nothing it did
 * is kept when the database refuses it, except what it does outside the database, which it
 * must make repeatable.
 */
export async function retryTransaction<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isRetryableConflict(error)) throw error;
      if (attempt >= ATTEMPTS)
        throw new Conflict('The items changed under concurrent requests: try again');
      // A little random spacing, so that the two writers that collided do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
