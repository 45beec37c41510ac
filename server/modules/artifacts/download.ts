import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Filestore } from '../../storage/filestore.ts';

export interface StoredFile {
  name: string;
  sha256: string;
  sha1: string;
  md5: string | null;
  size: number;
  mimeType: string;
  modifiedAt: Date;
}

/**
 * Types a browser would render, run or treat as a document. Stored content is served on the
 * console's own origin, so these are sandboxed and sent as attachments: a script inside an
 * uploaded file never runs with the console's cookies.
 */
export const ACTIVE_TYPES =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript|application\/pdf)/;

/**
 * The sandbox every stored file is served in. A download gets the plain sandbox: nothing in
 * it runs. Browsable content (`allowContentBrowsing`) may run its scripts, open links in new
 * windows and start downloads, but in an opaque origin, never the console's: without
 * `allow-same-origin` its scripts read no cookie or storage of the console, its requests are
 * cross-site (Depot refuses their writes, docs/security.md), and it cannot read answers of
 * Depot's API. Without `allow-top-navigation` it cannot lead the tab elsewhere either.
 */
export const DOWNLOAD_SANDBOX = 'sandbox';
export const BROWSABLE_SANDBOX = 'sandbox allow-scripts allow-popups allow-downloads';

/** A file's row as the download path reads it, with its content stored. */
export interface StoredFileRow {
  name: string;
  sha256: string;
  sha1: string;
  md5: string | null;
  size: number | string;
  mime_type: string | null;
  modified_at: Date;
}

/** What a download sends about a file, from its row. */
export function storedFileOf(row: StoredFileRow): StoredFile {
  return {
    name: row.name,
    sha256: row.sha256,
    sha1: row.sha1,
    md5: row.md5,
    size: Number(row.size),
    mimeType: row.mime_type ?? 'application/octet-stream',
    modifiedAt: new Date(row.modified_at),
  };
}

type ByteRange = { start: number; end: number };

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; undefined when absent, 'invalid' when unusable. */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'invalid' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}

const etagOf = (file: StoredFile) => `"${file.sha1}"`;

function notModified(request: FastifyRequest, file: StoredFile): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch) {
    return ifNoneMatch
      .split(',')
      .some((tag) => tag.trim().replace(/^W\//, '') === etagOf(file) || tag.trim() === '*');
  }
  const since = request.headers['if-modified-since'];
  return (
    since !== undefined &&
    Math.floor(file.modifiedAt.getTime() / 1000) <= Math.floor(Date.parse(since) / 1000)
  );
}

/**
 * Whether a read may show active content inline: an admin's per-repository opt-out
 * (`allowContentBrowsing`), which the repository asked for and, for a virtual one, every
 * member it reads through must all have.
 */
export function allowsContentBrowsing(repositories: { config: unknown }[]): boolean {
  return repositories.every(
    (repo) => (repo.config as { allowContentBrowsing?: boolean }).allowContentBrowsing === true,
  );
}

/**
 * The headers every answer with a stored file carries (the download fast path sends the
 * same): validators, checksums, the name, and the sandbox, with active content sent as an
 * attachment unless browsable. nosniff is added app-wide.
 */
export function storedFileHeaders(
  file: StoredFile,
  allowContentBrowsing: boolean,
): Record<string, string> {
  const headers: Record<string, string> = {
    etag: etagOf(file),
    'last-modified': file.modifiedAt.toUTCString(),
    'accept-ranges': 'bytes',
    'x-checksum-sha1': file.sha1,
    'x-checksum-sha256': file.sha256,
    'x-artifactory-filename': encodeURIComponent(file.name),
  };
  headers['content-security-policy'] = allowContentBrowsing ? BROWSABLE_SANDBOX : DOWNLOAD_SANDBOX;
  if (file.md5) headers['x-checksum-md5'] = file.md5;
  if (!allowContentBrowsing && ACTIVE_TYPES.test(file.mimeType)) {
    headers['content-disposition'] =
      `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`;
  }
  return headers;
}

/**
 * Sends a stored file with ETag, Last-Modified, checksums and single byte ranges: a small
 * one from memory, a large one streamed from disk.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StoredFile,
  filestore: Filestore,
  { allowContentBrowsing = false }: { allowContentBrowsing?: boolean } = {},
) {
  reply.headers(storedFileHeaders(file, allowContentBrowsing));
  if (notModified(request, file)) return reply.status(304).send();

  reply.type(file.mimeType);
  const range = parseRange(request.headers.range, file.size);
  if (range === 'invalid') {
    return reply.status(416).header('Content-Range', `bytes */${file.size}`).send();
  }
  if (range) {
    reply
      .status(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('Content-Length', range.end - range.start + 1);
    const content = filestore.isSmall(file.size)
      ? (await filestore.readSmall(file.sha256)).subarray(range.start, range.end + 1)
      : filestore.read(file.sha256, range);
    return reply.send(content);
  }
  // For HEAD, Fastify's head route drops the body unsent and keeps the headers.
  reply.header('Content-Length', file.size);
  if (filestore.isSmall(file.size)) return reply.send(await filestore.readSmall(file.sha256));
  return reply.send(filestore.read(file.sha256));
}
