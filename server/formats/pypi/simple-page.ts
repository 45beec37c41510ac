/** One file of a project's simple page (PEP 503 / PEP 691). */
export interface SimpleFile {
  filename: string;
  /** The file's path in the repository that serves it: `{project}/{version}/{file}`. */
  path: string;
  sha256?: string;
  requiresPython?: string;
  /** Where an upstream index links to it (remote repositories). */
  upstreamUrl?: string;
  yanked?: boolean | string;
}

export const SIMPLE_JSON = 'application/vnd.pypi.simple.v1+json';
export const SIMPLE_HTML = 'application/vnd.pypi.simple.v1+html';
/** PEP 691's "whatever version is newest": answered as v1, the only one there is. */
const LATEST_JSON = 'application/vnd.pypi.simple.latest+json';
const LATEST_HTML = 'application/vnd.pypi.simple.latest+html';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_m, entity: string) =>
    entity === 'amp'
      ? '&'
      : entity === 'lt'
        ? '<'
        : entity === 'gt'
          ? '>'
          : entity === 'quot'
            ? '"'
            : "'",
  );

/**
 * Whether a client asked for PEP 691's JSON form (pip does, with HTML as a fallback), as v1
 * or as `latest`; JSON wins a tie, HTML is the answer to anything else (`*\/*`, no Accept).
 */
export function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranked = accept.split(',').map((part) => {
    const [type, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { type: type!.trim(), q: q ? Number(q.slice(2)) : 1 };
  });
  const best = (types: string[]) =>
    Math.max(0, ...ranked.filter((r) => types.includes(r.type)).map((r) => r.q));
  const json = best([SIMPLE_JSON, LATEST_JSON]);
  const html = best([SIMPLE_HTML, LATEST_HTML, 'text/html']);
  return json > 0 && json >= html;
}

const page = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html>\n  <head>\n    <meta name="pypi:repository-version" content="1.0">\n    <title>${escapeHtml(title)}</title>\n  </head>\n  <body>\n    <h1>${escapeHtml(title)}</h1>\n${body}  </body>\n</html>\n`;

/** A project's page: one link per file, with its hash and Requires-Python. */
export function projectHtml(
  project: string,
  files: SimpleFile[],
  fileUrl: (f: SimpleFile) => string,
) {
  const links = files.map((file) => {
    const hash = file.sha256 ? `#sha256=${file.sha256}` : '';
    const requires = file.requiresPython
      ? ` data-requires-python="${escapeHtml(file.requiresPython)}"`
      : '';
    const yanked =
      file.yanked === undefined || file.yanked === false
        ? ''
        : ` data-yanked="${escapeHtml(file.yanked === true ? '' : file.yanked)}"`;
    return `    <a href="${escapeHtml(fileUrl(file) + hash)}"${requires}${yanked}>${escapeHtml(file.filename)}</a><br/>\n`;
  });
  return page(`Links for ${project}`, links.join(''));
}

export function projectJson(
  project: string,
  files: SimpleFile[],
  fileUrl: (f: SimpleFile) => string,
) {
  return {
    meta: { 'api-version': '1.0' },
    name: project,
    files: files.map((file) => ({
      filename: file.filename,
      url: fileUrl(file),
      hashes: file.sha256 ? { sha256: file.sha256 } : {},
      ...(file.requiresPython ? { 'requires-python': file.requiresPython } : {}),
      ...(file.yanked ? { yanked: file.yanked } : {}),
    })),
  };
}

export function rootHtml(projects: string[], projectUrl: (p: string) => string) {
  const links = projects.map(
    (p) => `    <a href="${escapeHtml(projectUrl(p))}">${escapeHtml(p)}</a><br/>\n`,
  );
  return page('Simple index', links.join(''));
}

export function rootJson(projects: string[]) {
  return { meta: { 'api-version': '1.0' }, projects: projects.map((name) => ({ name })) };
}

export interface UpstreamLink {
  text: string;
  href: string;
  attributes: Record<string, string>;
}

/** The anchors of an upstream's PEP 503 page (a flat list of `<a>` elements by the spec). */
export function parseAnchors(html: string): UpstreamLink[] {
  const links: UpstreamLink[] = [];
  for (const match of html.matchAll(/<a\s+([^>]*)>([^<]*)<\/a\s*>/gi)) {
    const attributes: Record<string, string> = {};
    for (const attribute of match[1]!.matchAll(
      /([\w-]+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g,
    )) {
      attributes[attribute[1]!.toLowerCase()] = unescapeHtml(
        attribute[2] ?? attribute[3] ?? attribute[4] ?? '',
      );
    }
    if (attributes.href)
      links.push({ text: unescapeHtml(match[2]!.trim()), href: attributes.href, attributes });
  }
  return links;
}
