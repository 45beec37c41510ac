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
}

const DEFAULTS: Options = {
  freeAttempts: 10,
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
  forgetAfterMs: 15 * 60_000,
  maxAddresses: 100_000,
};

interface Record {
  failures: number;
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

  failed(address: string): void {
    const now = this.now();
    const record = this.#live(address) ?? { failures: 0, blockedUntil: 0, lastFailureAt: now };
    record.failures += 1;
    record.lastFailureAt = now;
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

  succeeded(address: string): void {
    this.#records.delete(address);
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
