import { DepotError } from '../../errors.ts';

/**
 * The distribution specification's error codes, with the status each is answered with.
 * `UNKNOWN` is what distribution answers for a failure of its own.
 */
export const REGISTRY_CODES = {
  BLOB_UNKNOWN: 404,
  BLOB_UPLOAD_INVALID: 400,
  BLOB_UPLOAD_UNKNOWN: 404,
  DIGEST_INVALID: 400,
  MANIFEST_BLOB_UNKNOWN: 400,
  MANIFEST_INVALID: 400,
  MANIFEST_UNKNOWN: 404,
  NAME_INVALID: 400,
  NAME_UNKNOWN: 404,
  SIZE_INVALID: 400,
  UNAUTHORIZED: 401,
  DENIED: 403,
  UNSUPPORTED: 405,
  TOOMANYREQUESTS: 429,
  UNKNOWN: 500,
} as const;

export type RegistryCode = keyof typeof REGISTRY_CODES;

/** An answer of the registry protocol: `{"errors":[{code, message, detail}]}`. */
export class RegistryError extends DepotError {
  constructor(
    readonly registryCode: RegistryCode,
    message: string,
    readonly detail?: unknown,
    status: number = REGISTRY_CODES[registryCode],
  ) {
    super(status, message, undefined, registryCode);
  }
}

/**
 * Refused for want of credentials: the answer carries the Bearer challenge for `scope`
 * (`repository:<name>:<actions>`), which the client follows to the token endpoint.
 */
export class RegistryUnauthorized extends RegistryError {
  constructor(
    message: string,
    readonly scope?: string,
  ) {
    super('UNAUTHORIZED', message);
  }
}

/** The code a Depot error of another kind answers with in the registry protocol. */
export function registryCodeOf(error: DepotError): RegistryCode {
  if (error instanceof RegistryError) return error.registryCode;
  switch (error.statusCode) {
    case 401:
      return 'UNAUTHORIZED';
    case 404:
      return 'NAME_UNKNOWN';
    case 429:
      return 'TOOMANYREQUESTS';
    default:
      return error.statusCode >= 500 ? 'UNKNOWN' : 'DENIED';
  }
}
