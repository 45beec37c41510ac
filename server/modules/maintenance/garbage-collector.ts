import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Filestore } from '../../storage/filestore.ts';
import type { BlobHold } from './blob-hold.ts';
import { releaseUnreferencedBlob, unreferenced } from './blob-release.ts';

export interface CollectionReport {
  binaries: number;
  bytes: number;
  /** True when a backup in progress held deletion off and the run stopped early. */
  heldOff?: boolean;
}

/** A backup holds blob deletion off: the collector stops, and tries again at its next run. */
const HELD_OFF = Symbol('held off');

/** Blobs claimed this recently are left alone, whatever refers to them right now. */
export const DEFAULT_GC_GRACE_MS = 60 * 60 * 1000;
const BATCH = 500;

/**
 * A blob last touched more than `graceMs` ago, by the database's clock, which stamped
 * `touched_at`: a cutoff from this process's clock could differ from it (another node's clock,
 * or the same clock read to the millisecond against the database's microseconds, so that a
 * blob claimed in the same millisecond looked touched after a cutoff of grace 0).
 */
const touchedBefore = (graceMs: number) =>
  sql<boolean>`blobs.touched_at < now() - ${graceMs}::float8 * interval '1 millisecond'`;

/**
 * Garbage collection: removes blobs no file refers to. Each candidate is locked and checked
 * again inside its own transaction (`releaseUnreferencedBlob`: a deploy claims a blob's row
 * before or as it writes a row that refers to it), and blobs touched within the grace period
 * are skipped, so content being re-uploaded while the collector runs survives. While a backup
 * copies blobs nothing is deleted (`blobHold`, docs/backup.md).
 */
export function createGarbageCollector(db: Database, filestore: Filestore, blobHold: BlobHold) {
  async function collectOne(
    sha256: string,
    graceMs: number,
  ): Promise<number | undefined | typeof HELD_OFF> {
    return db.transaction().execute(async (tx) => {
      if (!(await blobHold.collectionAllowed(tx))) return HELD_OFF;
      return releaseUnreferencedBlob(tx, filestore, sha256, touchedBefore(graceMs));
    });
  }

  return {
    /**
     * Collects what nothing refers to, older than the grace period. `stopping` ends it early
     * (a shutdown), between two blobs, with what it freed so far.
     */
    async collect(
      graceMs = DEFAULT_GC_GRACE_MS,
      stopping?: AbortSignal,
    ): Promise<CollectionReport> {
      const report: CollectionReport = { binaries: 0, bytes: 0 };
      let after = '';
      for (;;) {
        const candidates = await db
          .selectFrom('blobs')
          .select('sha256')
          .where(touchedBefore(graceMs))
          .where('sha256', '>', after)
          .where(unreferenced)
          .orderBy('sha256')
          .limit(BATCH)
          .execute();
        for (const { sha256 } of candidates) {
          if (stopping?.aborted) return report;
          const freed = await collectOne(sha256, graceMs);
          if (freed === HELD_OFF) return { ...report, heldOff: true };
          if (freed !== undefined) {
            report.binaries += 1;
            report.bytes += freed;
          }
        }
        if (candidates.length < BATCH) return report;
        after = candidates[candidates.length - 1].sha256;
      }
    },
  };
}

export type GarbageCollector = ReturnType<typeof createGarbageCollector>;
