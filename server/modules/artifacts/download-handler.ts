import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFound } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { Services } from '../../services.ts';
import type { AccessDecider } from '../access-control/decider.ts';
import { allowsContentBrowsing, sendStoredFile, storedFileOf } from './download.ts';
import { folderListingHtml } from './listing.ts';
import { servesByPolicy } from '../../formats/maven/policy.ts';
import type { RemoteAnswer } from '../remote/service.ts';
import { sendStreamingAnswer } from '../remote/send-streaming.ts';

type FoundNode = NonNullable<Awaited<ReturnType<Services['artifacts']['findNodeForDownload']>>>;

/** Only files with stored content reach `serveFile`: a found node's checksums are set. */
const storedFile = (node: FoundNode) =>
  storedFileOf({ ...node, sha256: node.sha256!, sha1: node.sha1! });

const LISTING_LIMIT = 10000;
const CHECKSUM_SUFFIXES = { '.sha1': 'sha1', '.sha256': 'sha256', '.md5': 'md5' } as const;

/** A GET that sends the whole file, or a range from its first byte: one download. */
function isDownload(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== 'GET') return false;
  if (reply.statusCode === 200) return true;
  return (
    reply.statusCode === 206 && String(reply.getHeader('content-range')).startsWith('bytes 0-')
  );
}

/**
 * Downloads from `/artifactory/{repoKey}/{path}` and from the package formats' own URLs
 * (an npm tarball is the same file): stored files, virtual members in order, remote caches
 * and upstreams, folder listings and checksum files. Every read is checked against the
 * permission targets; members the caller may not read are skipped.
 */
export function createDownloadHandler({
  services,
  filestore,
}: {
  services: Services;
  filestore: Filestore;
}) {
  const { artifacts } = services;
  // Whether this download's repository opted out of sandboxing active content (download()).
  const contentBrowsing = new WeakMap<FastifyRequest, boolean>();

  /** Streams a stored file and counts the download for its statistics. */
  async function serveFile(request: FastifyRequest, reply: FastifyReply, node: FoundNode) {
    const sent = await sendStoredFile(request, reply, storedFile(node), filestore, {
      allowContentBrowsing: contentBrowsing.get(request) === true,
    });
    if (isDownload(request, reply)) services.downloadStats.record(node.id, request.principal.name);
    return sent;
  }

  /**
   * `asksFolder`: the URL ended in '/', which asks for a folder's listing. Only a folder
   * answers it, from what is stored or cached; an upstream is never asked, so that a page it
   * serves at a directory URL is never cached as a file under the folder's name.
   */
  async function download(
    request: FastifyRequest,
    reply: FastifyReply,
    repoKey: string,
    path: string,
    asksFolder = false,
  ) {
    const repo = await artifacts.repository(repoKey);
    const access = await services.access.forPrincipal(request.principal);
    // A Maven repository's release and snapshot handling hides what it does not handle.
    const allSources = (await artifacts.readOrder(repo, path)).filter((source) =>
      servesByPolicy(source, path),
    );
    // Members the caller may not read here are skipped, as if they did not have the path.
    const sources = allSources.filter((s) => access.can('read', s.key, path, 'folder'));
    const refused = () => services.access.denied(request.principal, 'read', repo.key, path);
    if (sources.length === 0 && allSources.length > 0) throw refused();
    contentBrowsing.set(request, allowsContentBrowsing([repo, ...sources]));
    const title = path ? `${repo.key}/${path}` : repo.key;
    if (path === '') return sendListing(reply, sources, access, title, '');
    const remoteRequest = {
      user: request.principal.name,
      log: request.log,
      streaming: request.method === 'GET' && !request.headers.range,
    };
    const sendRemote = (answer: Exclude<RemoteAnswer, { kind: 'absent' }>) =>
      answer.kind === 'cached'
        ? serveFile(request, reply, answer.node)
        : sendStreamingAnswer(reply, answer, path);
    let deniedFile = false;
    for (const source of sources) {
      const node = await artifacts.findNodeForDownload(source.id, path);
      if (node?.folder) return sendListing(reply, sources, access, title, path);
      if (asksFolder) continue;
      if (node?.sha256 && !access.can('read', source.key, path)) {
        deniedFile = true;
        continue;
      }
      if (node?.sha256 && source.rclass === 'remote' && !artifacts.isCacheView(source)) {
        // A cached copy; stale metadata is checked upstream first.
        const answer = await services.remote.resolve(source, path, node, remoteRequest);
        if (answer.kind !== 'absent') return sendRemote(answer);
      }
      if (node?.sha256) return serveFile(request, reply, node);
    }
    // Nothing stored or cached has it: ask the remote repositories' upstreams, in order.
    if (asksFolder) throw new NotFound(`Could not find resource '${repoKey}/${path}/'.`);
    let missReason: string | undefined;
    // Fetching into a remote's cache is Deploy/Cache on it (spec 01 §3), besides read; a
    // remote's cache named as `{remote}-cache` is read alone.
    const fetchable = sources.filter(
      (s) =>
        s.rclass === 'remote' &&
        !artifacts.isCacheView(s) &&
        access.can('read', s.key, path) &&
        access.can('deploy', s.key, path),
    );
    if (deniedFile && fetchable.length === 0) throw refused();
    for (const source of fetchable) {
      const answer = await services.remote.resolve(source, path, undefined, remoteRequest);
      if (answer.kind !== 'absent') return sendRemote(answer);
      missReason ??= answer.reason;
    }
    return sendChecksumFile(reply, sources, access, repo.key, path, missReason);
  }

  /** A folder of one repository, or the merged folder of a virtual's members (first wins). */
  async function sendListing(
    reply: FastifyReply,
    sources: readonly { id: number; key: string }[],
    access: AccessDecider,
    title: string,
    path: string,
  ) {
    const byName = new Map<string, Awaited<ReturnType<typeof artifacts.children>>[number]>();
    for (const { id, key } of sources) {
      for (const entry of await artifacts.children(id, path, LISTING_LIMIT + 1)) {
        const entryPath = path ? `${path}/${entry.name}` : entry.name;
        if (byName.has(entry.name)) continue;
        if (access.can('read', key, entryPath, entry.folder ? 'folder' : 'file'))
          byName.set(entry.name, entry);
      }
    }
    const entries = [...byName.values()].sort(
      (a, b) => Number(b.folder) - Number(a.folder) || a.name.localeCompare(b.name),
    );
    const truncated = entries.length > LISTING_LIMIT;
    return reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', "default-src 'none'")
      .send(
        folderListingHtml(
          `${title}/`,
          entries.slice(0, LISTING_LIMIT),
          truncated ? LISTING_LIMIT : undefined,
        ),
      );
  }

  /** `x.jar.sha1` and friends, answered from the stored checksums of `x.jar`. */
  async function sendChecksumFile(
    reply: FastifyReply,
    sources: { id: number; key: string }[],
    access: AccessDecider,
    repoKey: string,
    path: string,
    missReason?: string,
  ) {
    const suffix = Object.keys(CHECKSUM_SUFFIXES).find((s) => path.endsWith(s)) as
      keyof typeof CHECKSUM_SUFFIXES | undefined;
    for (const source of suffix ? sources : []) {
      const checksummed = path.slice(0, -suffix!.length);
      const target = await artifacts.findNodeForDownload(source.id, checksummed);
      if (!target?.sha256 || !access.can('read', source.key, checksummed)) continue;
      const kind = CHECKSUM_SUFFIXES[suffix!];
      const value =
        kind === 'md5'
          ? await artifacts.md5(target.sha256)
          : kind === 'sha1'
            ? target.sha1
            : target.sha256;
      return reply.type('text/plain').send(value);
    }
    throw new NotFound(missReason ?? `Could not find resource '${repoKey}/${path}'.`);
  }

  return download;
}
