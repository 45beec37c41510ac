import { createSHA1, createSHA256 } from 'hash-wasm';
import { CSRF_COOKIE, CSRF_HEADER, readCookie } from '../../../api/csrf';
import { NO_RESPONSE_MESSAGE } from '../../../api/messages';
import { DEPLOY_LABELS } from './messages';

/** Bytes read from the file per hashing step: big enough to be fast, small enough to yield. */
const HASH_CHUNK = 4 * 1024 * 1024;

export interface FileChecksums {
  sha1: string;
  sha256: string;
}

export class UploadCancelled extends Error {
  constructor() {
    super('Cancelled');
  }
}

/**
 * SHA-1 and SHA-256 of a file, read in chunks (never the whole file in memory), for the
 * server to verify what it receives (a mismatch stores nothing).
 */
export async function checksumsOf(
  file: Blob,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<FileChecksums> {
  const [sha1, sha256] = await Promise.all([createSHA1(), createSHA256()]);
  sha1.init();
  sha256.init();
  for (let offset = 0; offset < file.size; offset += HASH_CHUNK) {
    if (signal.aborted) throw new UploadCancelled();
    const chunk = new Uint8Array(await file.slice(offset, offset + HASH_CHUNK).arrayBuffer());
    sha1.update(chunk);
    sha256.update(chunk);
    onProgress(Math.min(1, (offset + chunk.length) / Math.max(1, file.size)));
  }
  return { sha1: sha1.digest('hex'), sha256: sha256.digest('hex') };
}

/** `repoKey/a b/c.txt` with `;k=v` matrix properties → the deploy URL, segments encoded. */
export function deployUrl(
  repoKey: string,
  path: string,
  properties: Record<string, string[]> = {},
): string {
  const encoded = [repoKey, ...path.split('/').filter(Boolean)].map(encodeURIComponent).join('/');
  const matrix = Object.entries(properties)
    .map(
      ([key, values]) => `;${encodeURIComponent(key)}=${values.map(encodeURIComponent).join(',')}`,
    )
    .join('');
  return `/artifactory/${encoded}${matrix}`;
}

/**
 * PUTs a file with XMLHttpRequest, the one browser API that reports upload progress.
 * Resolves with the server's JSON answer; rejects with its message (plain words naming the
 * status when it gave none), or UploadCancelled.
 */
export function putFile(
  url: string,
  file: Blob,
  headers: Record<string, string>,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.withCredentials = true;
    const token = readCookie(CSRF_COOKIE);
    if (token) request.setRequestHeader(CSRF_HEADER, token);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / Math.max(1, event.total));
    };
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) resolve(body);
      else reject(new Error(serverMessage(body) ?? DEPLOY_LABELS.uploadFailed(request.status)));
    };
    request.onerror = () => reject(new Error(NO_RESPONSE_MESSAGE));
    request.onabort = () => reject(new UploadCancelled());
    signal.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Artifactory's error shape: `{errors: [{status, message}]}`. */
function serverMessage(body: unknown): string | undefined {
  const errors = (body as { errors?: { message?: string }[] } | undefined)?.errors;
  return errors?.[0]?.message;
}
