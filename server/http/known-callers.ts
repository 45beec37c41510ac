import { hash, randomBytes } from 'node:crypto';
import type { TableChanges } from '../db/table-changes.ts';
import type { Principal } from './permissions.ts';

/** How long a proven credential is taken at its word; the same bound as the row caches'. */
const KNOWN_FOR_MS = 5000;
const MAX_CALLERS = 10_000;

/** Tables whose writes can change who a credential is, or whether it still holds. */
export const IDENTITY_TABLES = [
  'users',
  'groups',
  'user_groups',
  'access_tokens',
  'api_keys',
  'settings',
];

/**
 * The callers whose `Authorization` header the identity plugin proved moments ago, so the
 * download fast path can answer the next request of the same client without verifying it
 * again. Headers are kept only as a digest under a key that never leaves this process: no
 * password or token sits in memory in the clear. An entry lives a few seconds, never past
 * its token's expiry, and any write to users, groups, tokens, API keys or the security
 * settings forgets them all at once.
 */
export class KnownCallers {
  readonly #key = randomBytes(32).toString('base64');
  readonly #callers = new Map<string, { principal: Principal; until: number }>();

  constructor(changes: TableChanges) {
    changes.onChange(IDENTITY_TABLES, () => this.#callers.clear());
  }

  // SHA-256 over the secret key and the header: a keyed digest at half an HMAC's cost (one
  // pass instead of two), for a lookup that must not find a header it was not given. The
  // one-shot `hash` creates no Hash object: half the cost of `createHash` on every download.
  #digest(authorization: string): string {
    return hash('sha256', this.#key + authorization, 'base64');
  }

  /** Records a header the identity plugin just proved (a token's principal carries its end). */
  remember(authorization: string, principal: Principal): void {
    if (this.#callers.size >= MAX_CALLERS) this.#callers.clear();
    const until = Math.min(Date.now() + KNOWN_FOR_MS, principal.expiresAt ?? Infinity);
    this.#callers.set(this.#digest(authorization), { principal, until });
  }

  /** Who sent this header, if it was proved within the last few seconds. */
  recall(authorization: string): Principal | undefined {
    const known = this.#callers.get(this.#digest(authorization));
    return known && known.until > Date.now() ? known.principal : undefined;
  }
}
