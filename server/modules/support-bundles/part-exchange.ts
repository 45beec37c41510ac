import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import type { TableChanges } from '../../db/table-changes.ts';
import { nodePartFiles } from './node-part.ts';
import {
  claimRequestedParts,
  finishPart,
  hasRequestedParts,
  liveOtherNodes,
  partsOf,
  requestParts,
  type PartRow,
} from './queries.ts';

/** How long the maker of a bundle waits for the other nodes' parts before going without. */
const PART_ANSWER_TIMEOUT_MS = 60_000;
// A change notification can be lost while the listener reconnects: look again this often.
const RECHECK_MS = 1000;

export const PART_STATUS = {
  requested: 'requested',
  collecting: 'collecting',
  ready: 'ready',
  failed: 'failed',
};

interface ExchangeOptions {
  db: Database;
  changes: TableChanges;
  /** `<filestore>/_support`: every node of a cluster mounts the filestore. */
  supportDir: string;
  nodeId: string;
  logDir: string;
  logger: Logger;
  /** DEPOT_SUPPORT_BUNDLE_PART_WAIT_SECONDS; 60 s when absent. */
  answerTimeoutMs?: number;
}

/**
 * How the logs of every node reach a support bundle (docs/support-bundles.md, "Several
 * nodes"). Nodes share the database and the filestore, and nothing else: the node making a
 * bundle asks each other live node for its part with a row of `support_bundle_parts`; every
 * node hears of the row through the database's change notification, copies its logs of the
 * range and its diagnostic report under `_support/<bundle>/<node>/` on the shared filestore
 * and marks the row ready; the maker streams those files into the zip and removes them.
 */
export function createPartExchange(options: ExchangeOptions) {
  const { db, changes, supportDir, nodeId, logDir, logger } = options;
  const answerTimeoutMs = options.answerTimeoutMs ?? PART_ANSWER_TIMEOUT_MS;
  const waiters = new Set<() => void>();
  let answering: Promise<void> = Promise.resolve();
  let closed = false;

  const dirOf = (bundleId: string) => join(supportDir, bundleId);

  /** Copies this node's part of one bundle to the shared directory; answers its entries. */
  async function writePart(part: PartRow) {
    const dir = join(dirOf(part.bundle_id), nodeId);
    await mkdir(dir, { recursive: true });
    const entries: Array<{ name: string; file: string }> = [];
    for (const [index, file] of nodePartFiles(logDir, nodeId, part.log_from).entries()) {
      const stored = join(nodeId, `${index}-${file.name.split('/').pop()}`);
      const target = join(supportDir, part.bundle_id, stored);
      if (file.content) await writeFile(target, file.content);
      else await pipeline(createReadStream(file.path!), createWriteStream(target));
      entries.push({ name: file.name, file: stored });
    }
    return entries;
  }

  async function answerRequests() {
    if (!(await hasRequestedParts(db, nodeId))) return;
    for (const part of await claimRequestedParts(db, nodeId)) {
      try {
        await finishPart(db, part, { status: PART_STATUS.ready, entries: await writePart(part) });
      } catch (error) {
        logger.error(
          { err: error, bundle: part.bundle_id },
          'writing a support bundle part failed',
        );
        await finishPart(db, part, {
          status: PART_STATUS.failed,
          error: (error as Error).message,
        }).catch(() => undefined);
      }
    }
  }

  function onPartsChanged() {
    for (const wake of waiters) wake();
    if (closed) return;
    // One answering pass at a time; a change during one starts another after it.
    answering = answering.then(answerRequests).catch((error: unknown) => {
      logger.warn({ err: error }, 'answering support bundle requests failed');
    });
  }

  function changeOrTimeout(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }

  return {
    dirOf,

    /** Answers requests as they come (and those made while this node was down). */
    start() {
      changes.onChange(['support_bundle_parts'], onPartsChanged);
      onPartsChanged();
    },

    /** Asks every other live node for its part of a bundle; answers the nodes asked. */
    async request(bundleId: string, logFrom: string): Promise<string[]> {
      const nodes = await liveOtherNodes(db, nodeId);
      await requestParts(db, bundleId, nodes, logFrom);
      return nodes;
    },

    /** The parts of a bundle once every node answered, or when the wait ran out. */
    async collect(bundleId: string): Promise<PartRow[]> {
      const deadline = Date.now() + answerTimeoutMs;
      for (;;) {
        const parts = await partsOf(db, bundleId);
        const waiting = parts.some(
          (part) => part.status === PART_STATUS.requested || part.status === PART_STATUS.collecting,
        );
        if (!waiting || Date.now() >= deadline) return parts;
        await changeOrTimeout(Math.min(RECHECK_MS, deadline - Date.now()));
      }
    },

    /** Removes the parts' files once the bundle is made (or failed, or deleted). */
    discard: (bundleId: string) => rm(dirOf(bundleId), { recursive: true, force: true }),

    async close() {
      closed = true;
      for (const wake of waiters) wake();
      await answering;
    },
  };
}

export type PartExchange = ReturnType<typeof createPartExchange>;
