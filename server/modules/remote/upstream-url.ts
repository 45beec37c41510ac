/**
 * The schemes an upstream URL may use. Anything else (file:, gopher:, ftp:, data:, ...) is
 * refused when a remote repository is saved and again at every connection, redirects
 * included: such schemes read local files or speak raw TCP to whatever host they name.
 */
const UPSTREAM_SCHEMES = new Set(['http:', 'https:']);

/** Whether a parsed URL uses a scheme an upstream may use. */
export const isUpstreamScheme = (url: URL): boolean => UPSTREAM_SCHEMES.has(url.protocol);

/**
 * Undefined when `text` is an http or https URL; otherwise the scheme it uses instead
 * (`file`), or '' when it is no URL at all.
 */
export function refusedUpstreamScheme(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '';
  }
  return isUpstreamScheme(url) ? undefined : url.protocol.slice(0, -1);
}
