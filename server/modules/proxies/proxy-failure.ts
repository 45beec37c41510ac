/**
 * The proxy could not be reached, did not answer (`timedOut`), or refused the tunnel or the
 * request (`refused`: its credentials, which only an admin can fix).
 */
export class ProxyFailure extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
    readonly refused = false,
  ) {
    super(message);
  }
}
