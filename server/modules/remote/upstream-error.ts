import { DepotError } from '../../errors.ts';

/** The upstream failed or could not be asked: 502, or 504 for a timeout. Nothing is cached. */
export class UpstreamError extends DepotError {
  constructor(message: string, timeout = false) {
    super(timeout ? 504 : 502, message);
  }
}

/**
 * The upstream refused for too many requests (429): answered as 429, with the upstream's
 * `Retry-After` when it sent one, so that clients back off rather than retry at once.
 */
export class UpstreamRateLimited extends DepotError {
  constructor(
    message: string,
    readonly retryAfter?: string,
  ) {
    super(429, message);
  }
}
