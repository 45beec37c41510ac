import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { ZipFile } from 'yazl';
import { BadRequest, NotFound } from '../../errors.ts';
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
} from './queries.ts';

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

/**
 * Support bundles (docs/support-bundles.md): a zip of what someone helping an admin needs,
 * with no secret in it, made in the background (its row tells progress), streamed to disk
 * entry by entry so memory stays flat, kept in `home/support-bundles` until deleted.
 */
export function createSupportBundles(sources: BundleSources, logger: Logger) {
  const { db } = sources;
  const dir = join(sources.config.home, 'support-bundles');
  mkdirSync(dir, { recursive: true });
  const fileOf = (id: string) => join(dir, `${id}.zip`);
  const running = new Set<Promise<void>>();

  async function write(id: string, name: string, range: BundleRange) {
    const zip = new ZipFile();
    const written = pipeline(zip.outputStream, createWriteStream(fileOf(id)));
    const entries: string[] = [];
    try {
      for (const [index, [, part]] of BUNDLE_PARTS.entries()) {
        entries.push(...(await part(zip, sources, range)));
        await updateBundleRow(db, id, {
          progress: Math.round(((index + 1) / (BUNDLE_PARTS.length + 1)) * 100) - 1,
        });
      }
      const manifest = {
        id,
        name,
        created: new Date().toISOString(),
        depot: sources.version,
        nodes: [sources.config.nodeId],
        logRange: range,
        parts: BUNDLE_PARTS.map(([part]) => part),
        entries: [...entries, 'manifest.json'],
      };
      zip.addBuffer(...manifestEntry(manifest));
    } finally {
      zip.end();
    }
    await written;
    const { size } = await stat(fileOf(id));
    await updateBundleRow(db, id, { status: BUNDLE_STATUS.success, progress: 100, size });
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
        nodeId: sources.config.nodeId,
        createdBy: user,
      });
      const job = write(id, name, range).catch(async (error: unknown) => {
        logger.error({ err: error, bundle: id }, 'generating a support bundle failed');
        await rm(fileOf(id), { force: true });
        await updateBundleRow(db, id, {
          status: BUNDLE_STATUS.failed,
          error: (error as Error).message,
        }).catch(() => undefined);
      });
      running.add(job);
      void job.finally(() => running.delete(job));
      return (await bundleRow(db, id))!;
    },

    list: () => listBundleRows(db),

    /** The finished bundle's zip as a stream. */
    async open(id: string) {
      const row = await bundleRow(db, id);
      if (!row) throw new NotFound(`Support bundle '${id}' not found`);
      if (row.status !== BUNDLE_STATUS.success)
        throw new BadRequest(`Support bundle '${id}' is ${row.status}`);
      try {
        await stat(fileOf(id));
      } catch {
        throw new NotFound(`Support bundle '${id}' is kept on node ${row.node_id}`);
      }
      return { name: `${id}.zip`, stream: createReadStream(fileOf(id)) };
    },

    async delete(id: string) {
      if (!(await bundleRow(db, id))) throw new NotFound(`Support bundle '${id}' not found`);
      await deleteBundleRow(db, id);
      await rm(fileOf(id), { force: true });
    },

    /** At start: what this node left in progress is failed. On close: waits for the running. */
    failAbandoned: () => failAbandonedBundles(db, sources.config.nodeId),
    async close() {
      await Promise.allSettled([...running]);
    },
  };
}

export type SupportBundles = ReturnType<typeof createSupportBundles>;
