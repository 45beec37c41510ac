import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { BadRequest } from '../../errors.ts';
import type { PasswordPolicy } from '../security-config/service.ts';
import { AUTH_MESSAGES } from './messages.ts';
import { verifyPassword } from './password.ts';

type Executor = Database | Transaction<DepotDatabase>;

/** More history than any policy may ask for is never kept. */
export const MAX_PASSWORD_HISTORY = 24;
const DAY_MS = 24 * 3600 * 1000;

/** The rules a password breaks, as the console lists them next to the field; empty when none. */
export function policyRules(policy: PasswordPolicy): string[] {
  return [
    `at least ${policy.minLength} characters`,
    ...(policy.uppercase ? ['an uppercase letter'] : []),
    ...(policy.lowercase ? ['a lowercase letter'] : []),
    ...(policy.digit ? ['a digit'] : []),
    ...(policy.specialChar ? ['a special character'] : []),
    ...(policy.historySize > 0 ? [`none of the last ${policy.historySize} passwords`] : []),
  ];
}

/** True when the password lacks a length or a character class the policy asks for. */
export function breaksPolicy(password: string, policy: PasswordPolicy): boolean {
  return (
    [...password].length < policy.minLength ||
    (policy.uppercase && !/\p{Lu}/u.test(password)) ||
    (policy.lowercase && !/\p{Ll}/u.test(password)) ||
    (policy.digit && !/\p{Nd}/u.test(password)) ||
    (policy.specialChar && !/[^\p{L}\p{Nd}]/u.test(password))
  );
}

/** True once the policy's expiry days have passed since the password was set. */
export function passwordAged(changedAt: Date | string, policy: PasswordPolicy, now = Date.now()) {
  return policy.expiryDays > 0 && new Date(changedAt).getTime() + policy.expiryDays * DAY_MS <= now;
}

/** The hashes a new password may not match: the current one and the history the policy keeps. */
async function recentHashes(db: Executor, userId: number, policy: PasswordPolicy) {
  if (policy.historySize === 0) return [];
  const rows = await db
    .selectFrom('password_history')
    .select('password_hash')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(policy.historySize)
    .execute();
  return rows.map((r) => r.password_hash);
}

/**
 * Refuses a new password that breaks the policy with the spec's message, before anything
 * is written. `userId` is absent for a user being created (no history yet).
 */
export async function assertPasswordAllowed(
  db: Executor,
  policy: PasswordPolicy,
  password: string,
  field: string,
  user?: { id: number; currentHash: string | null },
): Promise<void> {
  if (breaksPolicy(password, policy)) throw new BadRequest(AUTH_MESSAGES.passwordPolicy, field);
  if (!user || policy.historySize === 0) return;
  const hashes = [user.currentHash, ...(await recentHashes(db, user.id, policy))];
  for (const hash of hashes) {
    if (hash && (await verifyPassword(password, hash))) {
      throw new BadRequest(AUTH_MESSAGES.passwordPolicy, field);
    }
  }
}

/** Keeps the replaced hash for the history rule, and no more than the longest history. */
export async function rememberReplacedPassword(
  db: Executor,
  userId: number,
  oldHash: string | null,
) {
  if (!oldHash) return;
  await db
    .insertInto('password_history')
    .values({ user_id: userId, password_hash: oldHash })
    .execute();
  const keep = await db
    .selectFrom('password_history')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .offset(MAX_PASSWORD_HISTORY - 1)
    .limit(1)
    .executeTakeFirst();
  if (keep) {
    await db
      .deleteFrom('password_history')
      .where('user_id', '=', userId)
      .where('id', '<', keep.id)
      .execute();
  }
}
