export const CSRF_COOKIE = 'depot_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

/** Reads one cookie by name from a `document.cookie` style string. */
export function readCookie(
  name: string,
  cookieString: string = document.cookie,
): string | undefined {
  for (const part of cookieString.split(';')) {
    const [rawName, ...rest] = part.split('=');
    if (rawName.trim() === name) return decodeURIComponent(rest.join('=').trim());
  }
  return undefined;
}

/** GET and HEAD change nothing, so the server asks the CSRF token only of the other methods. */
export function needsCsrfToken(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}
