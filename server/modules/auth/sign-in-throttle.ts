import { TooManyRequests } from '../../errors.ts';

export const THROTTLE_MESSAGE = (seconds: number) =>
  `Too many failed sign-ins from this address. Try again in ${seconds} seconds.`;

interface Options {
  /** Failures from one address before any wait. */
  freeAttempts: number;
  /** The first wait; each further failure doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** An address with no failure for this long starts afresh. */
  forgetAfterMs: number;
  /** Addresses tracked at most; the oldest are forgotten first. */
  maxAddresses: number;
  /** Accounts whose failures are told apart per address; failures against more still count. */
  maxAccountsPerAddress: number;
}

const DEFAULTS: Options = {
  freeAttempts: 10,
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
  forgetAfterMs: 15 * 60_000,
  maxAddresses: 100_000,
  maxAccountsPerAddress: 100,
};

interface Record {
  failures: number;
  /** The failures against each account (lower-cased), so a success forgives only its own. */
  byAccount: Map<string, number>;
  blockedUntil: number;
  lastFailureAt: number;
}

/**
 * Progressive delay per client address for password sign-ins (console and basic auth), on
 * top of the per-account lockout: after the free attempts, each failure doubles the wait,
 * answered at once as 429 with Retry-After rather than by holding the connection open. The
 * address is the socket's unless a trusted proxy forwards it (DEPOT_TRUSTED_PROXIES).
 */
export class SignInThrottle {
  readonly #options: Options;
  readonly #records = new Map<string, Record>();

  constructor(
    options: Partial<Options> = {},
    private readonly now = () => Date.now(),
  ) {
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Throws 429 while the address must wait. */
  check(address: string): void {
    const record = this.#live(address);
    if (!record) return;
    const waitMs = record.blockedUntil - this.now();
    if (waitMs > 0)
      throw new TooManyRequests(
        THROTTLE_MESSAGE(Math.ceil(waitMs / 1000)),
        Math.ceil(waitMs / 1000),
      );
  }

  /** A failed password or code for `account` from `address`. */
  failed(address: string, account: string): void {
    const now = this.now();
    const record = this.#live(address) ?? {
      failures: 0,
      byAccount: new Map<string, number>(),
      blockedUntil: 0,
      lastFailureAt: now,
    };
    record.failures += 1;
    record.lastFailureAt = now;
    const key = account.toLowerCase();
    const known = record.byAccount.get(key);
    if (known !== undefined || record.byAccount.size < this.#options.maxAccountsPerAddress)
      record.byAccount.set(key, (known ?? 0) + 1);
    const over = record.failures - this.#options.freeAttempts;
    if (over > 0) {
      const delay = Math.min(this.#options.baseDelayMs * 2 ** (over - 1), this.#options.maxDelayMs);
      record.blockedUntil = now + delay;
    }
    // Re-inserted so that the map's order is the order of last failure.
    this.#records.delete(address);
    this.#records.set(address, record);
    if (this.#records.size > this.#options.maxAddresses) {
      this.#records.delete(this.#records.keys().next().value!);
    }
  }

  /**
   * A right password for `account` from `address` forgives that account's failures from
   * there (the user's own typos), and only those: guesses against other accounts still
   * count, or one valid sign-in now and then would hide any number of them.
   */
  succeeded(address: string, account: string): void {
    const record = this.#live(address);
    const own = record?.byAccount.get(account.toLowerCase());
    if (!record || own === undefined) return;
    record.byAccount.delete(account.toLowerCase());
    record.failures -= own;
    if (record.failures === 0) this.#records.delete(address);
  }

  #live(address: string): Record | undefined {
    const record = this.#records.get(address);
    if (record && this.now() - record.lastFailureAt > this.#options.forgetAfterMs) {
      this.#records.delete(address);
      return undefined;
    }
    return record;
  }
}
