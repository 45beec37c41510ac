import type Ajv2020 from 'ajv/dist/2020.js';

/**
 * A valid email address as HTML's `<input type="email">` defines it (WHATWG), which is
 * what Artifactory's console accepts: a dot-atom local part and a host of one or more
 * labels. A single-label host (`admin@localhost`, `ci@buildbox`) is valid, as it is on an
 * internal network; ajv-formats' "email" wants a dot in the host, so the seeded admin could
 * not save its own record. The server's Ajv and the console's validator both use this one
 * pattern, so neither accepts an address the other refuses.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export const isEmail = (value: string) => EMAIL_PATTERN.test(value);

/** Replaces ajv-formats' "email" with {@link EMAIL_PATTERN}; call after addFormats. */
export function withDepotEmailFormat<T extends Pick<Ajv2020, 'addFormat'>>(ajv: T): T {
  ajv.addFormat('email', EMAIL_PATTERN);
  return ajv;
}
