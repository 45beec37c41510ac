/** What replaces a secret in a support bundle. */
export const REDACTED = '[REDACTED]';

// Names of fields that hold a secret, whatever the document: passwords, tokens, keys.
const SECRET_NAME =
  /pass(word)?|secret|token|credential|api.?key|private.?key|master.?key|signing/i;
// Environment variables whose values may be shown: none of them carries a secret.
const SAFE_ENV = new Set(['PATH', 'NODE_ENV', 'TZ', 'LANG', 'SHELL', 'PWD', 'HOSTNAME', 'USER']);

/** An address without the password of its user part (`postgres://depot:***@db/depot`). */
function withoutUserInfo(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@\s]*):[^@/\s]*@/i, `$1:${REDACTED}@`);
}

/**
 * A deep copy of `value` with every secret replaced: the value of a field whose name says
 * secret, a password inside an address, and sealed values (the instance seals every secret
 * it keeps, so none can be opened outside it, but a bundle carries none at all).
 */
export function redact(value: unknown, name = ''): unknown {
  if (value === null || value === undefined) return value;
  if (SECRET_NAME.test(name) && typeof value !== 'boolean' && typeof value !== 'object')
    return REDACTED;
  if (typeof value === 'string') return withoutUserInfo(value);
  if (Array.isArray(value)) return value.map((item) => redact(item, name));
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        SECRET_NAME.test(key) && item !== null && typeof item === 'object'
          ? REDACTED
          : redact(item, key),
      ]),
    );
  }
  return value;
}

/** Environment variables with every value hidden but those known to carry no secret. */
export function redactEnvironment(env: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [key, SAFE_ENV.has(key) ? value : REDACTED]),
  );
}

/** `text` with every value of the process environment that may be a secret replaced. */
export function withoutEnvironmentValues(text: string, env: NodeJS.ProcessEnv = process.env) {
  let safe = text;
  for (const [key, value] of Object.entries(env)) {
    // Short values (0, true, a port) would replace ordinary text and hide nothing.
    if (SAFE_ENV.has(key) || !value || value.length < 8) continue;
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)]))
      safe = safe.split(form).join(REDACTED);
  }
  return safe;
}
