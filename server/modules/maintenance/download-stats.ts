import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

interface PendingStats {
  count: number;
  /** Milliseconds since the epoch: a download is counted without allocating a Date. */
  last: number;
  by: string;
}

export interface DownloadStats {
  downloadCount: number;
  lastDownloaded: Date | undefined;
  lastDownloadedBy: string | undefined;
}

const FLUSH_INTERVAL_MS = 1000;
const ROWS_PER_STATEMENT = 1000;

/**
 * Download statistics per file. A download only counts in memory (the 10 KiB download
 * throughput is benchmarked: no write per request); a timer flushes the counts within a
 * second in one upsert per thousand files, adding to what other processes wrote, and `stop`
 * flushes what is left. Reads add what this process has not flushed yet (after any flush
 * under way, whose counts are in neither place until it commits). Counts of a file
 * deleted before the flush are dropped (the upsert joins `nodes`), and deleting a file
 * deletes its row (foreign key cascade).
 */
export function createDownloadStats(db: Database, flushIntervalMs = FLUSH_INTERVAL_MS) {
  let pending = new Map<number, PendingStats>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let reportFailure: (error: unknown) => void = () => undefined;

  /** Adds counts to a file's entry in place; the latest download names who made it. */
  function merge(
    into: Map<number, PendingStats>,
    nodeId: number,
    { count, last, by }: PendingStats,
  ) {
    const known = into.get(nodeId);
    if (!known) into.set(nodeId, { count, last, by });
    else {
      known.count += count;
      if (last >= known.last) {
        known.last = last;
        known.by = by;
      }
    }
  }

  async function write(batch: [number, PendingStats][]) {
    const values = sql.join(
      batch.map(
        ([id, s]) =>
          sql`(${id}::bigint, ${s.count}::bigint, ${new Date(s.last)}::timestamptz, ${s.by}::text)`,
      ),
    );
    await sql`
      insert into download_stats (node_id, download_count, last_downloaded, last_downloaded_by)
      select v.node_id, v.count, v.last, v.by
        from (values ${values}) as v(node_id, count, last, by)
        join nodes on nodes.id = v.node_id
      on conflict (node_id) do update set
        download_count = download_stats.download_count + excluded.download_count,
        last_downloaded = greatest(download_stats.last_downloaded, excluded.last_downloaded),
        last_downloaded_by = case
          when excluded.last_downloaded >= download_stats.last_downloaded
          then excluded.last_downloaded_by else download_stats.last_downloaded_by end`.execute(db);
  }

  async function flushNow() {
    timer = undefined;
    const taken = pending;
    pending = new Map();
    const entries = [...taken.entries()];
    try {
      for (let i = 0; i < entries.length; i += ROWS_PER_STATEMENT)
        await write(entries.slice(i, i + ROWS_PER_STATEMENT));
    } catch (error) {
      // Keep the counts for the next flush rather than lose them to a passing failure.
      for (const [id, stats] of taken) merge(pending, id, stats);
      throw error;
    }
  }

  /**
   * A file's stored row and its counts not flushed yet, read when no flush is under way: a
   * flush takes the pending counts before its upsert commits, and a read in between would
   * find them in neither place. A flush started during the read may or may not be in its
   * answer, so the read is made again.
   */
  async function storedAndPending(nodeId: number) {
    for (;;) {
      const settled = flushing;
      await settled.catch(() => undefined);
      if (settled !== flushing) continue;
      const row = await db
        .selectFrom('download_stats')
        .selectAll()
        .where('node_id', '=', nodeId)
        .executeTakeFirst();
      // Same tick as the check: no flush can take the pending counts in between.
      const unflushed = pending.get(nodeId);
      if (settled === flushing) return { row, unflushed: unflushed && { ...unflushed } };
    }
  }

  /** Flushes what is pending; flushes never overlap. */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    flushing = flushing.catch(() => undefined).then(flushNow);
    return flushing;
  }

  return {
    flush,

    /** Counts one download of a file by a user. */
    record(nodeId: number, user: string) {
      // A repeated download is counted in place, with no Date made: this runs on every download.
      merge(pending, nodeId, { count: 1, last: Date.now(), by: user });
      if (!timer) {
        timer = setTimeout(() => void flush().catch(reportFailure), flushIntervalMs);
        timer.unref();
      }
    },

    async get(nodeId: number): Promise<DownloadStats> {
      const { row, unflushed } = await storedAndPending(nodeId);
      const stats = new Map<number, PendingStats>();
      if (row)
        stats.set(nodeId, {
          count: Number(row.download_count),
          last: new Date(row.last_downloaded).getTime(),
          by: row.last_downloaded_by,
        });
      if (unflushed) merge(stats, nodeId, unflushed);
      const total = stats.get(nodeId);
      return {
        downloadCount: total?.count ?? 0,
        lastDownloaded: total && new Date(total.last),
        lastDownloadedBy: total?.by,
      };
    },

    /** When each of the files was last downloaded (flushed counts; call `flush` first). */
    async lastDownloads(nodeIds: readonly number[]): Promise<Map<number, Date>> {
      if (nodeIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('download_stats')
        .select(['node_id', 'last_downloaded'])
        .where('node_id', 'in', nodeIds)
        .execute();
      return new Map(rows.map((row) => [Number(row.node_id), new Date(row.last_downloaded)]));
    },

    /** Flushes what is left; the app calls it on close, before the database goes. */
    async stop() {
      await flush().catch(reportFailure);
    },

    /** Where a failed flush is reported (the counts are kept for the next one). */
    onFlushError(listener: (error: unknown) => void) {
      reportFailure = listener;
    },
  };
}

export type DownloadStatsService = ReturnType<typeof createDownloadStats>;
