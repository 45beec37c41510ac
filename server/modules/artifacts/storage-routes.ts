import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { RepoAction } from '../access-control/decider.ts';
import { PROPERTY_MESSAGES } from '../artifact-properties/messages.ts';
import { toStorageInfo } from '../storage-summary/artifactory-shape.ts';
import { registerMetadataRoutes } from './metadata-routes.ts';
import { parseArtifactPath } from './paths.ts';
import {
  parsePropertyList,
  parsePropertyNames,
  readProperties,
  readRootProperties,
  type Properties,
} from './properties.ts';
import { lastModifiedBelow } from './storage-last-modified.ts';
import {
  deleteCheckedProperties,
  setCheckedProperties,
  type CheckedScope,
} from './property-changes.ts';
import { checkPropertyBatch, checkPropertyNamesToDelete } from './property-limits.ts';

type StorageRequest = FastifyRequest<{
  Params: { repoKey: string; '*'?: string };
  Querystring: Record<string, string | undefined>;
}>;

const flag = (value: string | undefined) => value === '1' || value === 'true';
const iso = (date: Date | string) => new Date(date).toISOString();
const BASE = '/artifactory/api/storage';

/** `?properties=a,b` reads only those (Artifactory's filter); a bare `?properties` reads all. */
function only(properties: Properties, names: string | undefined): Properties {
  const wanted = parsePropertyNames(names ?? '');
  if (wanted.length === 0) return properties;
  return Object.fromEntries(Object.entries(properties).filter(([key]) => wanted.includes(key)));
}

/**
 * `/artifactory/api/storage/{repoKey}/{path}` in Artifactory's shapes: file and folder info,
 * `?list` (with `deep`, `listFolders`), `?properties` to read, set and delete properties, and
 * `?stats` for download statistics, `?lastModified` for the newest file below a folder.
 */
export async function storageRoutes(app: FastifyInstance, { services }: { services: Services }) {
  const { artifacts, db } = services;

  /** The item asked about, once the caller may do `action` on it. */
  async function locate(request: StorageRequest, action: RepoAction = 'read') {
    const { path } = parseArtifactPath(request.params['*'] ?? '');
    const repo = await artifacts.repository(request.params.repoKey);
    const node = path === '' ? undefined : await artifacts.findNode(repo.id, path);
    if (path !== '' && !node) {
      // Judged as a file first: a caller who may not reach the path learns nothing of it.
      await services.access.require(request.principal, action, repo.key, path, 'file');
      throw new NotFound(`Unable to find item '${repo.key}/${path}'`);
    }
    const kind = !node || node.folder ? 'folder' : 'file';
    const access = await services.access.require(request.principal, action, repo.key, path, kind);
    const rootUri = `${request.protocol}://${request.host}${BASE}/${repo.key}`;
    const uri = `${rootUri}${path ? `/${path}` : ''}`;
    /** Whether the caller may read an item found below (listings show only those). */
    const readable = (entry: { path: string; folder: boolean }) =>
      access.can('read', repo.key, entry.path, entry.folder ? 'folder' : 'file');
    return { repo, path, node, uri, rootUri, readable };
  }

  /** `?stats`: Artifactory's download statistics of a file, times in epoch milliseconds. */
  async function downloadStatistics(
    node: { id: number; folder: boolean } | undefined,
    uri: string,
  ) {
    if (!node || node.folder)
      throw new BadRequest('Download statistics are kept for files, not for folders');
    const stats = await services.downloadStats.get(node.id);
    return {
      uri,
      downloadCount: stats.downloadCount,
      lastDownloaded: stats.lastDownloaded?.getTime() ?? 0,
      ...(stats.lastDownloadedBy ? { lastDownloadedBy: stats.lastDownloadedBy } : {}),
      // Downloads through other Depot instances' smart remotes: none are counted yet.
      remoteDownloadCount: 0,
      remoteLastDownloaded: 0,
    };
  }

  async function info(request: StorageRequest, reply: FastifyReply) {
    const located = await locate(request);
    const { repo, path, node, uri, readable } = located;
    if ('properties' in request.query) {
      const properties = node
        ? await readProperties(db, node.id)
        : await readRootProperties(db, repo.id);
      return { properties: only(properties, request.query.properties), uri };
    }
    if ('lastModified' in request.query) return lastModifiedBelow(db, located);
    if ('stats' in request.query) return downloadStatistics(node, uri);
    if ('list' in request.query) {
      const entries = (
        await artifacts.listBelow(repo.id, path, {
          deep: flag(request.query.deep),
          withFolders: flag(request.query.listFolders),
        })
      ).filter(readable);
      const prefix = path === '' ? 0 : path.length + 1;
      return {
        uri,
        created: node ? iso(node.created_at) : undefined,
        files: entries.map((e) => ({
          uri: `/${e.path.slice(prefix)}`,
          size: Number(e.size),
          lastModified: iso(e.modified_at),
          folder: e.folder,
          ...(e.folder ? {} : { sha1: e.sha1, sha2: e.sha256 }),
        })),
      };
    }
    const common = {
      repo: repo.key,
      path: `/${path}`,
      created: node ? iso(node.created_at) : undefined,
      createdBy: node?.created_by,
      lastModified: node ? iso(node.modified_at) : undefined,
      modifiedBy: node?.modified_by,
      lastUpdated: node ? iso(node.modified_at) : undefined,
    };
    if (!node || node.folder) {
      const children = (
        await artifacts.listBelow(repo.id, path, { deep: false, withFolders: true })
      ).filter(readable);
      const prefix = path === '' ? 0 : path.length + 1;
      return {
        ...common,
        children: children.map((c) => ({ uri: `/${c.path.slice(prefix)}`, folder: c.folder })),
        uri,
      };
    }
    return reply.send({
      ...common,
      downloadUri: `${request.protocol}://${request.host}/artifactory/${repo.key}/${path}`,
      mimeType: node.mime_type,
      size: String(node.size),
      checksums: { sha1: node.sha1, md5: await artifacts.md5(node.sha256!), sha256: node.sha256 },
      originalChecksums: { sha1: node.sha1, sha256: node.sha256 },
      uri,
    });
  }

  /**
   * What a property change applies to: the item, and everything below a folder unless
   * `recursive=0`. The repository's root is a folder too: its properties are the
   * repository's own (Artifactory's "item (file, folder, or repository)").
   */
  async function scope(request: StorageRequest): Promise<CheckedScope> {
    const { repo, path, node } = await locate(request, 'annotate');
    if (repo.rclass === 'virtual') throw new BadRequest(PROPERTY_MESSAGES.virtual(repo.key));
    const folder = !node || node.folder;
    const recursive = folder && request.query.recursive !== '0';
    return { repositoryId: repo.id, repoKey: repo.key, path, recursive };
  }

  async function setProps(request: StorageRequest, reply: FastifyReply) {
    const list = request.query.properties;
    if (!list)
      throw new BadRequest('Give the properties to set: ?properties=key=value;key2=value2');
    const properties = parsePropertyList(list);
    // Annotate on everything the change reaches: the walker refuses all of it otherwise.
    checkPropertyBatch(properties);
    const walker = await services.access.walker(request.principal);
    await setCheckedProperties(db, await scope(request), properties, walker);
    return reply.status(204).send();
  }

  async function deleteProps(request: StorageRequest, reply: FastifyReply) {
    const keys = parsePropertyNames(request.query.properties ?? '');
    if (keys.length === 0)
      throw new BadRequest('Give the property keys to delete: ?properties=key1,key2');
    checkPropertyNamesToDelete(keys);
    const walker = await services.access.walker(request.principal);
    await deleteCheckedProperties(db, await scope(request), keys, walker);
    return reply.status(204).send();
  }

  for (const url of [`${BASE}/:repoKey`, `${BASE}/:repoKey/*`]) {
    // Reading needs Read, changing properties Annotate, on the item (services.access).
    app.get(url, { config: { permission: 'reader' } }, info);
    // A folder's properties change recursively unless recursive=0: every node is walked.
    app.put(url, { config: { permission: 'reader', reach: 'many' } }, setProps);
    app.delete(url, { config: { permission: 'reader', reach: 'many' } }, deleteProps);
  }

  registerMetadataRoutes(app, services);

  app.get('/artifactory/api/storageinfo', { config: { permission: 'admin' } }, async () =>
    toStorageInfo(await services.storageSummary.summarize()),
  );
}
