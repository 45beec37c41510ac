import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../workers/module-worker.ts';

export type WorkerRequest =
  { type: 'query'; id: number; sql: string; parameters: unknown[] } | { type: 'close' };

type ErrorFields = { message: string } & Record<string, string | undefined>;

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'closed' }
  | { type: 'failed'; error: ErrorFields }
  | { type: 'result'; id: number; rows: unknown[]; affectedRows?: number }
  | { type: 'error'; id: number; error: ErrorFields };

/** An error that reads like the one PGlite raised in the worker (message, code, detail...). */
function toError(fields: ErrorFields): Error {
  return Object.assign(new Error(fields.message), fields);
}

/** Starts the database's worker thread (pglite-worker.ts). */
function startWorker(home: string): Worker {
  // The thread's own objects are small and short-lived (one query's rows): a small young
  // generation keeps its idle memory down by some tens of MB at no measurable cost.
  return startModuleWorker(import.meta.url, 'pglite-worker', {
    workerData: { home },
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
}

/**
 * The embedded PGlite database, running in a worker thread (pglite-worker.ts) and used
 * through the few calls the Kysely dialect needs. Queries are answered in the order sent.
 * The worker keeps the process alive only while a query is outstanding.
 */
export class EmbeddedDatabase {
  readonly waitReady: Promise<void>;
  #worker: Worker;
  #pending = new Map<
    number,
    { resolve: (reply: WorkerReply) => void; reject: (e: Error) => void }
  >();
  #nextId = 1;
  #closed = false;
  #stopped?: Error;
  #whenClosed?: () => void;

  constructor(home: string) {
    this.#worker = startWorker(home);
    this.waitReady = new Promise((resolve, reject) => {
      this.#worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') resolve();
        else if (reply.type === 'failed') reject(toError(reply.error));
        else if (reply.type === 'closed') this.#whenClosed?.();
        else this.#settle(reply);
        this.#refWhileBusy();
      });
      this.#worker.on('error', (error) => this.#stop(error, reject));
      this.#worker.on('exit', (code) =>
        this.#stop(new Error(`The embedded database stopped (exit code ${code})`), reject),
      );
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  query<R>(sql: string, parameters: unknown[] = []): Promise<{ rows: R[]; affectedRows?: number }> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, {
        resolve: (reply) => {
          if (reply.type === 'result')
            resolve({ rows: reply.rows as R[], affectedRows: reply.affectedRows });
        },
        reject,
      });
      this.#refWhileBusy();
      this.#worker.postMessage({ type: 'query', id, sql, parameters } satisfies WorkerRequest);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#stopped) return;
    await new Promise<void>((resolve) => {
      this.#whenClosed = resolve;
      this.#worker.ref();
      this.#worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    });
    await this.#worker.terminate();
  }

  #settle(reply: Extract<WorkerReply, { id: number }>) {
    const waiting = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (!waiting) return;
    if (reply.type === 'error') waiting.reject(toError(reply.error));
    else waiting.resolve(reply);
  }

  /** A worker that ended (crashed, or closed) fails whatever still waits on it. */
  #stop(error: Error, rejectStart: (e: Error) => void) {
    this.#stopped ??= error;
    rejectStart(error);
    for (const waiting of this.#pending.values()) waiting.reject(error);
    this.#pending.clear();
    this.#whenClosed?.();
  }

  #refWhileBusy() {
    if (this.#pending.size > 0) this.#worker.ref();
    else if (!this.#whenClosed) this.#worker.unref();
  }
}
