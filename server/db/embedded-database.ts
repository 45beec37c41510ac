import { statfsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { startModuleWorker } from '../workers/module-worker.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { clusterTemplates } from './pglite-templates.ts';

export type WorkerRequest =
  { type: 'query'; id: number; sql: string; parameters: unknown[] } | { type: 'close' };

export type ErrorFields = { message: string } & Record<string, string | undefined>;

type ResultReply = { type: 'result'; id: number; rows: unknown[]; affectedRows?: number };

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'closed'; error?: ErrorFields }
  | { type: 'failed'; error: ErrorFields }
  | ResultReply
  | { type: 'error'; id: number; error: ErrorFields; instanceEnded: boolean };

/** An error that reads like the one PGlite raised in the worker (message, code, detail...). */
function toError(fields: ErrorFields): Error {
  return Object.assign(new Error(fields.message), fields);
}

/** PostgreSQL's crash_shutdown: what a session hears when the server it runs in went down. */
const instanceLost = (message: string) => toError({ message, code: '57P02' });

/**
 * What a start after a crash needs free at least: recovery ends by writing to the WAL, and a
 * new WAL segment takes 16 MiB, written out in full.
 */
const ROOM_TO_START = 16 * 1024 * 1024;

/** Bytes free on the disk that holds `dir`. */
function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/** Starts the database's worker thread (pglite-worker.ts). */
function startWorker(home: string): Worker {
  // The thread's own objects are small and short-lived (one query's rows): a small young
  // generation keeps its idle memory down by some tens of MB at no measurable cost.
  return startModuleWorker(import.meta.url, 'pglite-worker', {
    workerData: { home, templates: clusterTemplates() },
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
}

/** One PGlite in one worker thread, and the queries sent to it that have not been answered. */
class Instance {
  readonly pending = new Map<number, { resolve(r: ResultReply): void; reject(e: Error): void }>();
  readonly started: Promise<void>;
  ready = false;
  ended = false;
  #startedSettle!: { resolve(): void; reject(e: Error): void };
  #whenClosed?: () => void;

  constructor(readonly worker: Worker) {
    this.started = new Promise((resolve, reject) => (this.#startedSettle = { resolve, reject }));
    this.started.catch(() => undefined); // a restart nobody awaits reports through its queries
  }

  markReady() {
    this.ready = true;
    this.#startedSettle.resolve();
  }

  /** Asks the thread to close PGlite (a clean shutdown checkpoint) and waits until it has. */
  close(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      this.#whenClosed = resolve;
      this.worker.ref();
      this.worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    });
  }

  closed() {
    this.#whenClosed?.();
  }

  /** Fails whatever still waits on this instance: none of it ran there. */
  fail(reason: Error) {
    this.ended = true;
    this.#startedSettle.reject(reason);
    for (const waiting of this.pending.values()) waiting.reject(reason);
    this.pending.clear();
    this.#whenClosed?.();
  }

  // The thread keeps the process alive only while a query is outstanding or it is closing.
  refWhileBusy() {
    if (this.pending.size > 0 || this.#whenClosed) this.worker.ref();
    else this.worker.unref();
  }
}

/**
 * The embedded PGlite database, running in a worker thread (pglite-worker.ts) and used
 * through the few calls the Kysely dialect needs. Queries are answered in the order sent.
 *
 * Supervised: when the instance cannot go on (PostgreSQL's PANIC or FATAL, such as a WAL
 * write on a full disk; a start that failed; the thread ending), every query still waiting
 * on it fails with that reason, its thread is ended, and the next query starts a new one on
 * the same data directory. Its start-up replays the WAL, as PostgreSQL's crash recovery
 * does, so every commit that was answered is still there; a start that fails again (the
 * disk is still full) fails the queries waiting for it, and the next query tries again.
 */
export class EmbeddedDatabase {
  readonly waitReady: Promise<void>;
  #instance?: Instance;
  /** Why the last start failed, while that was a full disk. */
  #startFailedForSpace?: Error;
  #generation = 0;
  #nextId = 1;
  #closed = false;
  readonly #unlock: () => void;

  constructor(
    private readonly home: string,
    private readonly logger?: Pick<Logger, 'info' | 'warn'>,
  ) {
    // Before any thread opens it: a second process on the same files would corrupt them.
    this.#unlock = lockDataDir(join(home, 'db'));
    this.waitReady = this.#start().started;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Counts the instances that ended: a transaction begun in one cannot go on in the next. */
  get generation(): number {
    return this.#generation;
  }

  query<R>(sql: string, parameters: unknown[] = []): Promise<{ rows: R[]; affectedRows?: number }> {
    if (this.#closed) return Promise.reject(new Error('The embedded database is closed'));
    // A start costs seconds of a core: after one failed for want of space, the next waits
    // until the disk has room for it, and until then each query hears why at once.
    if (!this.#instance && this.#startFailedForSpace) {
      if (freeBytes(join(this.home, 'db')) < ROOM_TO_START)
        return Promise.reject(this.#startFailedForSpace);
    }
    const instance = this.#instance ?? this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      instance.pending.set(id, {
        resolve: (reply) => resolve({ rows: reply.rows as R[], affectedRows: reply.affectedRows }),
        reject,
      });
      instance.refWhileBusy();
      // A starting thread holds this until PGlite is open, then answers in order.
      instance.worker.postMessage({ type: 'query', id, sql, parameters } satisfies WorkerRequest);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const instance = this.#instance;
    try {
      if (!instance) return;
      await instance.close();
      await instance.worker.terminate();
    } finally {
      this.#unlock();
    }
  }

  #start(): Instance {
    const instance = new Instance(startWorker(this.home));
    this.#instance = instance;
    instance.worker.on('message', (reply: WorkerReply) => this.#receive(instance, reply));
    instance.worker.on('error', (error) => this.#end(instance, instanceLost(error.message)));
    instance.worker.on('exit', (code) =>
      this.#end(instance, instanceLost(`The embedded database stopped (exit code ${code})`)),
    );
    return instance;
  }

  #receive(instance: Instance, reply: WorkerReply) {
    if (reply.type === 'ready') {
      this.#startFailedForSpace = undefined;
      instance.markReady();
      if (this.#generation > 0) this.logger?.info('the embedded database started again');
    } else if (reply.type === 'failed') {
      const reason = toError(reply.error);
      if (reply.error.code === '53100') this.#startFailedForSpace = reason;
      this.#end(instance, reason);
    } else if (reply.type === 'closed') {
      if (reply.error)
        this.logger?.warn(
          { err: toError(reply.error) },
          'the embedded database closed without its shutdown checkpoint; its next start replays the WAL',
        );
      instance.closed();
    } else {
      const waiting = instance.pending.get(reply.id);
      instance.pending.delete(reply.id);
      if (reply.type === 'result') waiting?.resolve(reply);
      else {
        const error = toError(reply.error);
        waiting?.reject(error);
        if (reply.instanceEnded) this.#end(instance, error);
      }
    }
    if (!instance.ended) instance.refWhileBusy();
  }

  #end(instance: Instance, reason: Error) {
    if (instance.ended) return;
    if (this.#instance === instance) {
      this.#instance = undefined;
      this.#generation++;
    }
    const wasReady = instance.ready;
    instance.fail(reason);
    void instance.worker.terminate();
    if (this.#closed) return;
    this.logger?.warn(
      { err: reason },
      wasReady
        ? 'the embedded database stopped; the next query starts it again, replaying its WAL'
        : 'the embedded database could not start; the next query tries again',
    );
  }
}
