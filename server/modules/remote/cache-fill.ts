import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Conflict, DepotError } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import type { RepositoriesService } from '../repositories/service.ts';
import { REMOTE_MESSAGES } from './messages.ts';
import type { UpstreamState, Validators } from './upstream-state.ts';
import type { CachedNode } from './service.ts';
import { UpstreamError } from './upstream-error.ts';

type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;

/** Upstream headers worth passing to a client that gets the body as it downloads. */
const CHECKSUM_HEADERS = ['x-checksum-sha1', 'x-checksum-sha256', 'x-checksum-md5'] as const;

const header = (response: IncomingMessage, name: string) => {
  const value = response.headers[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** The validators an upstream sent, for a conditional request once the copy is stale. */
export const validatorsOf = (response: IncomingMessage): Validators => ({
  etag: header(response, 'etag') ?? null,
  lastModified: header(response, 'last-modified') ?? null,
});

/** A container registry's `Docker-Content-Digest`, when it is a sha256: a checksum like the others. */
function registryDigestHex(response: IncomingMessage) {
  return /^sha256:([a-f0-9]{64})$/.exec(header(response, 'docker-content-digest') ?? '')?.[1];
}

/** Headers for a client that gets the body while it downloads (no checksums of our own yet). */
export function streamingHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const length = header(response, 'content-length');
  if (length) headers['content-length'] = length;
  for (const name of CHECKSUM_HEADERS) {
    const value = header(response, name);
    if (value) headers[name] = value; // verified before the client gets the last byte
  }
  return headers;
}

/** Puts an upstream body into a remote repository's cache, whole and verified, or nothing. */
export function createCacheFill(
  filestore: Filestore,
  artifacts: ArtifactsService,
  state: UpstreamState,
) {
  /** Stages the body, checked against the upstream's checksum headers and Content-Length. */
  async function stageVerified(
    repo: RepositoryRow,
    path: string,
    response: IncomingMessage,
    body: Readable,
    sha256: string | undefined,
  ) {
    const expected = {
      sha1: header(response, 'x-checksum-sha1'),
      sha256: sha256 ?? header(response, 'x-checksum-sha256') ?? registryDigestHex(response),
      md5: header(response, 'x-checksum-md5'),
    };
    let staged;
    try {
      staged = await filestore.stage(body, expected);
    } catch (error) {
      if (error instanceof Conflict)
        throw new UpstreamError(REMOTE_MESSAGES.checksumMismatch(repo.key, path, error.message));
      if (error instanceof DepotError) throw error; // a full disk stays a 507
      throw new UpstreamError(REMOTE_MESSAGES.brokeOff(repo.key, (error as Error).message));
    }
    const length = header(response, 'content-length');
    if (length !== undefined && Number(length) !== staged.size) {
      await filestore.discard(staged);
      throw new UpstreamError(
        REMOTE_MESSAGES.brokeOff(repo.key, `${staged.size} of ${length} bytes`),
      );
    }
    return staged;
  }

  return {
    /** Stages, verifies and records a body; the node it now is in the cache. */
    async record(
      repo: RepositoryRow,
      path: string,
      response: IncomingMessage,
      body: Readable,
      user: string,
      sha256?: string,
    ): Promise<CachedNode> {
      const staged = await stageVerified(repo, path, response, body, sha256);
      await artifacts.recordCachedFile(repo, path, staged, user);
      const node = (await artifacts.findNode(repo.id, path))!;
      await state.recordCheck(node.id, validatorsOf(response));
      return node;
    },
  };
}
