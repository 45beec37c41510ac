import { createHash, randomBytes } from 'node:crypto';
import { createReadCache } from '../../cache/read-cache.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { Conflict, NotFound, Unauthorized } from '../../errors.ts';
import { AUTH_MESSAGES } from '../auth/messages.ts';
import { isEffectiveAdmin } from '../users/queries.ts';
import { TOKEN_MESSAGES as M } from './messages.ts';

/** Artifactory's API keys start so; a password that does is tried as a key. */
const KEY_PREFIX = 'AKCp';
const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * API keys (docs/access-tokens.md): one per user, usable as the password of basic auth or in
 * the `X-JFrog-Art-Api` header. Looked up by SHA-256; sealed with the master key so that its
 * owner can be shown it again, as Artifactory's profile page does.
 */
export function createApiKeysService(deps: {
  db: Database;
  secrets: SecretBox;
  changes: TableChanges;
}) {
  const { db, secrets } = deps;
  const owners = createReadCache<string, { id: number; name: string } | undefined>({
    ttlMs: 30_000,
    maxEntries: 10_000,
  });
  deps.changes.onChange(['api_keys', 'users'], owners.clear);

  const newKey = () => `${KEY_PREFIX}${randomBytes(48).toString('base64url')}`;

  async function store(userId: number, replace: boolean): Promise<string> {
    const key = newKey();
    const values = { user_id: userId, key_sha256: sha256(key), key_sealed: secrets.encrypt(key) };
    try {
      await db
        .insertInto('api_keys')
        .values(values)
        .onConflict((c) =>
          replace
            ? c.column('user_id').doUpdateSet({
                key_sha256: values.key_sha256,
                key_sealed: values.key_sealed,
              })
            : c.column('user_id').doNothing(),
        )
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) return store(userId, replace); // a 2^-384 collision: retry
      throw error;
    }
    if (!replace && (await get(userId)) !== key) throw new Conflict(M.apiKeyExists);
    return key;
  }

  async function get(userId: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('api_keys')
      .select('key_sealed')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && secrets.decrypt(row.key_sealed);
  }

  return {
    looksLikeKey: (value: string) => value.startsWith(KEY_PREFIX) && value.length > 40,
    get,
    create: (userId: number) => store(userId, false),
    regenerate: (userId: number) => store(userId, true),

    async revoke(userId: number): Promise<void> {
      const result = await db
        .deleteFrom('api_keys')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) throw new NotFound(M.noApiKey);
    },

    async exists(userId: number): Promise<boolean> {
      return (await get(userId)) !== undefined;
    },

    /**
     * The user a key belongs to; 401 for an unknown key. A sign-in lock does not stop a key:
     * locks hold back password guessing, and a key of 64 random characters is not guessed.
     */
    async authenticate(key: string) {
      const owner = await owners.get(sha256(key), async () =>
        db
          .selectFrom('api_keys')
          .innerJoin('users', 'users.id', 'api_keys.user_id')
          .select(['users.id', 'users.name'])
          .where('api_keys.key_sha256', '=', sha256(key))
          .executeTakeFirst(),
      );
      if (!owner) throw new Unauthorized(AUTH_MESSAGES.badCredentials);
      return { userId: owner.id, name: owner.name, admin: await isEffectiveAdmin(db, owner.id) };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
