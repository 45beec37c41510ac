import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { createReadCache } from '../../cache/read-cache.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { AccessDecider } from '../../modules/access-control/decider.ts';
import type { ArtifactsService } from '../../modules/artifacts/service.ts';
import type { RemoteService } from '../../modules/remote/service.ts';
import type { RepositoriesService } from '../../modules/repositories/service.ts';
import { cachedDocumentPath, escapedName } from './names.ts';
import { createDocumentMerger } from './merge.ts';
import {
  abbreviatedPackument,
  fullPackument,
  rewriteUpstreamTarballs,
  withTarballBase,
} from './packument.ts';
import type { NpmStore } from './store.ts';

type RepositoryRow = NonNullable<Awaited<ReturnType<RepositoriesService['findRow']>>>;

/**
 * A package's document in one repository, tarball URLs under the marker, as text in parts
 * (a local one: a part per version) so that no step handles megabytes in one go.
 */
export interface PackageDocument {
  full: string[];
  /** The install-v1 form; absent where only the full one exists (a remote's cached copy). */
  abbreviated?: string[];
  etag: string;
}

/**
 * The ETag of a document as a client gets it: its tarball URLs name `base` (the base URL, or
 * the request's own address), so a changed base is a changed document, never a 304.
 */
export function renderedEtag(documentEtag: string, base: string, abbreviated: boolean): string {
  const tag = `"${createHash('sha1').update(documentEtag).update('|').update(base).digest('hex')}"`;
  return abbreviated ? `W/${tag}` : tag;
}

/** The whole document as one string, for the calls that read it (tags, one version, merges). */
export const documentText = (parts: string[]) => parts.join('');

export interface DocumentRequest {
  user: string;
  log: FastifyBaseLogger;
  access: AccessDecider;
}

// Work on a document yields to other requests after about this many characters.
const SLICE = 512 * 1024;
const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

/** The ETag of a document, hashed a slice at a time. */
async function etagOf(parts: string[]): Promise<string> {
  const hash = createHash('sha1');
  let done = 0;
  for (const part of parts) {
    hash.update(part);
    done += part.length;
    if (done >= SLICE) {
      done = 0;
      await yieldToOthers();
    }
  }
  return `"${hash.digest('hex')}"`;
}

/** The bytes a client gets: tarball URLs on `base`, encoded a slice at a time. */
async function render(parts: string[], base: string): Promise<Buffer> {
  const buffers: Buffer[] = [];
  let done = 0;
  for (const part of parts) {
    buffers.push(Buffer.from(withTarballBase(part, base)));
    done += part.length;
    if (done >= SLICE) {
      done = 0;
      await yieldToOthers();
    }
  }
  return Buffer.concat(buffers);
}

/**
 * Packuments of local, remote and virtual npm repositories. A local one is joined from the
 * stored version documents and kept in memory until the index or the files change (on any
 * node of a cluster, through table changes); a remote one is the upstream's document, cached
 * in the repository like any file and checked again after the metadata retrieval period; a
 * virtual one merges its members', first member first.
 */
export function createNpmDocuments(deps: {
  store: NpmStore;
  artifacts: ArtifactsService;
  remote: RemoteService;
  filestore: Filestore;
  changes?: TableChanges;
}) {
  const { store, artifacts, remote, filestore } = deps;
  // Merging members' documents of megabytes runs in a worker thread (merge.ts).
  const merger = createDocumentMerger();
  const localDocuments = createReadCache<string, PackageDocument | undefined>({
    ttlMs: 60_000,
    maxEntries: 200,
  });
  // Keyed by the cached file's content: a new upstream copy is a new key.
  const remoteDocuments = createReadCache<string, PackageDocument>({
    ttlMs: 60_000,
    maxEntries: 200,
  });
  deps.changes?.onChange(['packages', 'package_versions', 'nodes'], localDocuments.clear);
  // A virtual's merge, by its members' documents: the same members merge once, not for every
  // install (a merge of megabytes leaves tens of megabytes for the garbage collector).
  const mergedDocuments = createReadCache<string, PackageDocument>({
    ttlMs: 60_000,
    maxEntries: 16,
  });
  // What was sent lately, by document, form and base URL: a popular package is encoded once.
  const rendered = createReadCache<string, Buffer>({ ttlMs: 60_000, maxEntries: 32 });

  function localDocument(repo: RepositoryRow, name: string) {
    return localDocuments.get(`${repo.id}/${name}`, async () => {
      const pkg = await store.findPackage(repo.id, name);
      if (!pkg) return undefined;
      const versions = await store.versions(pkg.id, repo.id);
      if (versions.length === 0) return undefined;
      // The publishers, first publish first: who may publish a package maintains it in Depot.
      const publishers = [
        ...new Set(versions.flatMap((v) => (v.created_by ? [v.created_by] : []))),
      ];
      const emails = new Map((await store.people(publishers)).map((p) => [p.name, p.email]));
      const maintainers = publishers.map((name) => ({ name, email: emails.get(name) ?? '' }));
      const full = fullPackument(pkg, versions, maintainers);
      return { full, abbreviated: abbreviatedPackument(pkg, versions), etag: await etagOf(full) };
    });
  }

  async function remoteDocument(repo: RepositoryRow, name: string, request: DocumentRequest) {
    const path = cachedDocumentPath(name);
    const cached = await artifacts.findNode(repo.id, path);
    const answer = await remote.resolve(repo, path, cached, {
      user: request.user,
      log: request.log,
      streaming: false,
      upstreamPath: escapedName(name),
    });
    if (answer.kind !== 'cached') return undefined;
    const sha256 = answer.node.sha256!;
    return remoteDocuments.get(`${repo.id}/${name}/${sha256}`, async () => {
      const text = await readFile(filestore.pathOf(sha256), 'utf8');
      const full = [rewriteUpstreamTarballs(text, name)];
      return { full, etag: await etagOf(full) };
    });
  }

  async function merged(
    repo: RepositoryRow,
    name: string,
    request: DocumentRequest,
  ): Promise<PackageDocument | undefined> {
    const found: PackageDocument[] = [];
    for (const member of await artifacts.readOrder(repo, name)) {
      if (!request.access.can('read', member.key, name, 'folder')) continue;
      try {
        const document = await documentOf(member, name, request);
        if (document) found.push(document);
      } catch (error) {
        // One unreachable upstream must not hide what the other members have.
        request.log.warn(
          { repository: member.key, name, reason: (error as Error).message },
          'npm: a member of a virtual repository failed; merging the others',
        );
      }
    }
    if (found.length <= 1) return found[0];
    return mergedDocuments.get(found.map((d) => d.etag).join('|'), async () => {
      const { full, abbreviated } = await merger.merge(found.map((d) => documentText(d.full)));
      return { full, abbreviated, etag: await etagOf(full) };
    });
  }

  async function documentOf(repo: RepositoryRow, name: string, request: DocumentRequest) {
    if (repo.rclass === 'local') return localDocument(repo, name);
    if (repo.rclass === 'remote') return remoteDocument(repo, name, request);
    return merged(repo, name, request);
  }

  return {
    documentOf,

    /** The document's bytes for a client: the abbreviated form when asked and there is one. */
    bytesOf(document: PackageDocument, abbreviated: boolean, base: string): Promise<Buffer> {
      const parts = (abbreviated && document.abbreviated) || document.full;
      const form = parts === document.full ? 'full' : 'abbreviated';
      return rendered.get(`${document.etag}|${form}|${base}`, () => render(parts, base));
    },
  };
}

export type NpmDocuments = ReturnType<typeof createNpmDocuments>;
