import { DepotError } from '../../errors.ts';

/** The upstream failed or could not be asked: 502, or 504 for a timeout. Nothing is cached. */
export class UpstreamError extends DepotError {
  constructor(message: string, timeout = false) {
    super(timeout ? 504 : 502, message);
  }
}
