import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { BadRequest } from '../../errors.ts';
import { MAIL_MESSAGES as M } from './messages.ts';

export type TokenPurpose = 'reset' | 'invite';

/** A reset link is good for a day; an invitation for a week. */
export const TOKEN_LIFETIME_HOURS: Record<TokenPurpose, number> = { reset: 24, invite: 168 };

const digest = (key: string) => createHash('sha256').update(key).digest('hex');

/** One-time keys for mailed links: issued, looked at, used once. */
export function createUserTokens(db: Database) {
  /** The user a live key is for, or the "not valid or expired" refusal. */
  async function live(key: string, purpose: TokenPurpose) {
    const row = await db
      .selectFrom('user_tokens')
      .innerJoin('users', 'users.id', 'user_tokens.user_id')
      .select(['users.id', 'users.name', 'users.password_hash'])
      .where('user_tokens.key_sha256', '=', digest(key))
      .where('user_tokens.purpose', '=', purpose)
      .where('user_tokens.used_at', 'is', null)
      .where('user_tokens.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    if (!row) throw new BadRequest(M.invalidKey);
    return row;
  }

  return {
    /** A new key; earlier unused keys of the same purpose stop working. */
    async issue(userId: number, purpose: TokenPurpose): Promise<string> {
      const key = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_HOURS[purpose] * 3600 * 1000);
      await db.transaction().execute(async (tx) => {
        await tx
          .deleteFrom('user_tokens')
          .where('user_id', '=', userId)
          .where('purpose', '=', purpose)
          .execute();
        await tx
          .insertInto('user_tokens')
          .values({ key_sha256: digest(key), user_id: userId, purpose, expires_at: expiresAt })
          .execute();
      });
      return key;
    },

    live,

    /** Marks the key used, once: of two racing uses, one wins. */
    async use(key: string, purpose: TokenPurpose): Promise<void> {
      const result = await db
        .updateTable('user_tokens')
        .set({ used_at: new Date() })
        .where('key_sha256', '=', digest(key))
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new BadRequest(M.invalidKey);
    },
  };
}

export type UserTokens = ReturnType<typeof createUserTokens>;
