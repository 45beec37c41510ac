import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { DepotConfig } from '../../config.ts';
import type { Services } from '../../services.ts';
import { ZipFile } from 'yazl';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { ArtifactsService } from '../artifacts/service.ts';
import {
  BUNDLE_PARTS,
  manifestEntry,
  type BundleRange,
  type BundleSources,
} from './bundle-contents.ts';
import {
  BUNDLE_STATUS,
  bundleRow,
  deleteBundleRow,
  failAbandonedBundles,
  insertBundleRow,
  listBundleRows,
  updateBundleRow,
  type PartRow,
} from './queries.ts';
import {
  bundlePath,
  ensureBundleRepository,
  SUPPORT_BUNDLES_REPO_KEY,
} from './bundle-repository.ts';
import { nodePartFiles } from './node-part.ts';
import { createPartExchange, PART_STATUS, type PartExchange } from './part-exchange.ts';

export interface BundleRequest {
  name?: string;
  description?: string;
  /** The logs' date range; the last 7 days when absent. */
  startDate?: string;
  endDate?: string;
}

const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

function rangeOf(request: BundleRequest, now = Date.now()): BundleRange {
  const range = {
    from: request.startDate ?? isoDay(now - 7 * DAY_MS),
    to: request.endDate ?? isoDay(now),
  };
  for (const [field, value] of Object.entries(range)) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
      throw new BadRequest(
        'Enter a date as YYYY-MM-DD',
        field === 'from' ? 'startDate' : 'endDate',
      );
  }
  if (range.from > range.to)
    throw new BadRequest('The start date is after the end date', 'startDate');
  return range;
}

/** What a bundle's maker needs besides the parts' sources. */
export interface BundleStore {
  artifacts: Pick<ArtifactsService, 'deploy' | 'repository' | 'findNode' | 'removeTree'>;
  filestore: Pick<Filestore, 'read' | 'root'>;
  exchange: PartExchange;
}

/** What the manifest says of each node's part. */
function nodeOutcome(part: PartRow | undefined, waitSeconds: number) {
  if (!part) return 'included';
  if (part.status === PART_STATUS.ready) return 'included';
  if (part.status === PART_STATUS.failed) return `failed: ${part.error ?? 'unknown error'}`;
  return `did not answer within ${waitSeconds} s`;
}

/**
 * Support bundles (docs/support-bundles.md): a zip of what someone helping an admin needs,
 * with no secret in it, made in the background (its row tells progress), with the logs and
 * diagnostic report of every live node of the cluster (part-exchange.ts), streamed entry by
 * entry into an artifact of the `supportBundles` repository, so memory stays flat, the
 * bundle counts toward storage and any node serves its download.
 */
export function createSupportBundles(
  sources: BundleSources & { logDir: string },
  store: BundleStore,
  logger: Logger,
) {
  const { db, config } = sources;
  const { artifacts, filestore, exchange } = store;
  const running = new Set<Promise<void>>();
  const sharedParts = BUNDLE_PARTS.length;

  async function progressed(id: string, done: number) {
    await updateBundleRow(db, id, { progress: Math.round((done / (sharedParts + 2)) * 100) - 1 });
  }

  /** The other nodes' parts, as they answered, streamed from the shared directory. */
  async function addOtherNodes(zip: ZipFile, id: string) {
    const parts = await exchange.collect(id);
    const entries: string[] = [];
    for (const part of parts) {
      if (part.status !== PART_STATUS.ready) continue;
      for (const entry of part.entries) {
        zip.addReadStream(createReadStream(join(exchange.dirOf(id), entry.file)), entry.name);
        entries.push(entry.name);
      }
    }
    return { parts, entries };
  }

  async function writeEntries(zip: ZipFile, id: string, name: string, range: BundleRange) {
    const asked = await exchange.request(id, range.from);
    const entries: string[] = [];
    for (const [index, [, part]] of BUNDLE_PARTS.entries()) {
      entries.push(...(await part(zip, sources, range)));
      await progressed(id, index + 1);
    }
    for (const file of nodePartFiles(sources.logDir, config.nodeId, range.from)) {
      if (file.content) zip.addBuffer(file.content, file.name);
      else zip.addReadStream(createReadStream(file.path!), file.name);
      entries.push(file.name);
    }
    await progressed(id, sharedParts + 1);
    const others = await addOtherNodes(zip, id);
    entries.push(...others.entries);
    const byNode = new Map(others.parts.map((part) => [part.node_id, part]));
    const manifest = {
      id,
      name,
      created: new Date().toISOString(),
      depot: sources.version,
      madeBy: config.nodeId,
      nodes: Object.fromEntries(
        [config.nodeId, ...asked].map((node) => [
          node,
          nodeOutcome(
            node === config.nodeId ? undefined : byNode.get(node),
            config.supportBundlePartWaitSeconds,
          ),
        ]),
      ),
      logRange: range,
      parts: [...BUNDLE_PARTS.map(([part]) => part), 'logs', 'diagnostic report per node'],
      entries: [...entries, 'manifest.json'],
    };
    zip.addBuffer(...manifestEntry(manifest));
  }

  async function write(id: string, name: string, range: BundleRange, user: string) {
    await ensureBundleRepository(db);
    const zip = new ZipFile();
    const stored = artifacts.deploy({
      repoKey: SUPPORT_BUNDLES_REPO_KEY,
      path: bundlePath(id),
      content: zip.outputStream as Readable,
      expected: {},
      byChecksum: false,
      properties: {},
      user,
    });
    try {
      await writeEntries(zip, id, name, range);
      zip.end();
    } catch (error) {
      // The deploy reading the zip fails too, so no half bundle is stored.
      (zip.outputStream as Readable).destroy(error as Error);
      await stored.catch(() => undefined);
      throw error;
    }
    const { blob } = await stored;
    await updateBundleRow(db, id, {
      status: BUNDLE_STATUS.success,
      progress: 100,
      size: Number(blob.size),
    });
  }

  async function storedNode(id: string) {
    try {
      const repo = await artifacts.repository(SUPPORT_BUNDLES_REPO_KEY);
      const node = await artifacts.findNode(repo.id, bundlePath(id));
      return node && { repo, node };
    } catch (error) {
      if (error instanceof NotFound) return undefined; // no bundle was ever made
      throw error;
    }
  }

  return {
    /** Starts a bundle and answers its row at once; the zip is written in the background. */
    async generate(request: BundleRequest, user: string) {
      const range = rangeOf(request);
      const id = `${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomUUID().slice(0, 8)}`;
      const name = request.name?.trim() || `Support bundle ${id}`;
      await insertBundleRow(db, {
        id,
        name,
        description: request.description ?? '',
        nodeId: config.nodeId,
        createdBy: user,
      });
      const job = write(id, name, range, user)
        .catch(async (error: unknown) => {
          logger.error({ err: error, bundle: id }, 'generating a support bundle failed');
          await updateBundleRow(db, id, {
            status: BUNDLE_STATUS.failed,
            error: (error as Error).message,
          }).catch(() => undefined);
        })
        .finally(() => exchange.discard(id));
      running.add(job);
      void job.finally(() => running.delete(job));
      return (await bundleRow(db, id))!;
    },

    list: () => listBundleRows(db),

    /** The finished bundle's zip as a stream, from the shared filestore (any node serves it). */
    async open(id: string) {
      const row = await bundleRow(db, id);
      if (!row) throw new NotFound(`Support bundle '${id}' not found`);
      if (row.status !== BUNDLE_STATUS.success)
        throw new BadRequest(`Support bundle '${id}' is ${row.status}`);
      const stored = await storedNode(id);
      if (!stored?.node.sha256)
        throw new NotFound(`Support bundle '${id}' is no longer in ${SUPPORT_BUNDLES_REPO_KEY}`);
      return { name: `${id}.zip`, stream: filestore.read(stored.node.sha256) };
    },

    async delete(id: string, user: string) {
      if (!(await bundleRow(db, id))) throw new NotFound(`Support bundle '${id}' not found`);
      const stored = await storedNode(id);
      if (stored) await artifacts.removeTree(stored.repo, id, user);
      await deleteBundleRow(db, id);
      await exchange.discard(id);
    },

    /** At start: what this node left in progress is failed, and it answers other nodes' asks. */
    async start() {
      await failAbandonedBundles(db, config.nodeId);
      exchange.start();
    },
    async close() {
      await Promise.allSettled([...running]);
      await exchange.close();
    },
  };
}

export type SupportBundles = ReturnType<typeof createSupportBundles>;

/** A node's support bundles, on the services it shares with the other nodes. */
export function supportBundlesOf(
  services: Pick<Services, 'db' | 'tableChanges' | 'artifacts' | 'filestore' | 'version'>,
  config: DepotConfig,
  logDir: string,
  logger: Logger,
): SupportBundles {
  const { db, filestore } = services;
  const exchange = createPartExchange({
    db,
    changes: services.tableChanges,
    supportDir: join(filestore.root, '_support'),
    nodeId: config.nodeId,
    logDir,
    logger,
    answerTimeoutMs: config.supportBundlePartWaitSeconds * 1000,
  });
  return createSupportBundles(
    { db, config, logDir, version: services.version },
    { artifacts: services.artifacts, filestore, exchange },
    logger,
  );
}
