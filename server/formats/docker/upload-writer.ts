import type { Worker } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import { startModuleWorker } from '../../workers/module-worker.ts';

/**
 * A batch of an upload's bytes: copied out of the socket's chunks into a slot of memory
 * shared with the upload thread, written and hashed there, then filled again. Shared, not
 * moved: an ArrayBuffer moved between threads counts as new memory on each side every time,
 * and V8 collects garbage on the main thread for every 64 MiB of that.
 */
export const BATCH_BYTES = 2 * 1024 * 1024;
/** Batches of one append the thread may hold at once; one more is being filled. */
const MAX_IN_FLIGHT = 2;

export type UploadThreadRequest =
  | { seq: number; op: 'open'; id: string; path: string; size: number; slots: SharedArrayBuffer }
  | { seq: number; op: 'write'; id: string; slot: number; length: number }
  | { seq: number; op: 'close'; id: string }
  | { seq: number; op: 'digests'; id: string; size: number }
  | { seq: number; op: 'forget'; id: string };

export type UploadThreadReply =
  | { seq: number; hashed?: boolean; digests?: UploadDigests }
  | { seq: number; error: { message: string; code?: string } };

export interface UploadDigests {
  size: number;
  sha256: string;
  sha1: string;
}

type Pending = { resolve: (reply: UploadThreadReply) => void; reject: (error: Error) => void };
type Request = UploadThreadRequest extends infer R
  ? R extends { seq: number }
    ? Omit<R, 'seq'>
    : never
  : never;

/**
 * Writes and hashes uploads' bytes on a thread of their own (docs/docker.md, "Uploads"): the
 * event loop only copies each chunk into a batch, so reading the socket, SHA-256, SHA-1 and
 * the file's writes overlap on two cores instead of taking turns on one. The thread keeps
 * each upload's running hashes while they cover its file; `digests` answers them when the
 * upload ends, or nothing (the end then reads the file). The thread starts with the first
 * upload, does not keep the process alive while idle, and a new one replaces it if it dies
 * (its hashes are then lost: those uploads are read again when they end).
 */
export function createUploadWriter(callerUrl = import.meta.url) {
  let worker: Worker | undefined;
  let lastSeq = 0;
  const pending = new Map<number, Pending>();

  function failAll(error: Error) {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = undefined;
  }

  function thread(): Worker {
    if (worker) return worker;
    const started = startModuleWorker(callerUrl, 'docker-upload-worker');
    started.on('message', (reply: UploadThreadReply) => {
      const waiting = pending.get(reply.seq);
      pending.delete(reply.seq);
      if (pending.size === 0) started.unref();
      if (!waiting) return;
      if ('error' in reply)
        waiting.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      else waiting.resolve(reply);
    });
    started.on('error', failAll);
    started.on('exit', (code) => {
      if (worker === started) failAll(new Error(`the upload thread exited (${code})`));
    });
    worker = started;
    return started;
  }

  function call(request: Request) {
    const seq = ++lastSeq;
    const target = thread();
    return new Promise<Extract<UploadThreadReply, { hashed?: boolean }>>((resolve, reject) => {
      pending.set(seq, { resolve: resolve as Pending['resolve'], reject });
      target.ref();
      target.postMessage({ ...request, seq });
    });
  }

  /**
   * Appends a body to the upload's file through the thread, handing each chunk to `check`
   * first (which may refuse it by throwing). A body that breaks off keeps what arrived: the
   * batch in hand is written before its error goes on; a refused chunk is the caller's to cut
   * off (nothing of its batch is sent; the writes before it are done when this throws). Answers whether the thread's hashes cover the file.
   */
  async function append(
    id: string,
    path: string,
    before: number,
    body: Readable,
    check: (chunk: Buffer) => void,
  ): Promise<{ hashed: boolean }> {
    const slots = new SharedArrayBuffer((MAX_IN_FLIGHT + 1) * BATCH_BYTES);
    const { hashed = false } = await call({ op: 'open', id, path, size: before, slots });
    const free = Array.from({ length: MAX_IN_FLIGHT + 1 }, (_, slot) => slot);
    const inFlight: Promise<unknown>[] = [];
    const slotBuffer = (slot: number) => Buffer.from(slots, slot * BATCH_BYTES, BATCH_BYTES);
    let slot = free.pop()!;
    let batch = slotBuffer(slot);
    let filled = 0;
    const send = async () => {
      if (filled === 0) return;
      const sentSlot = slot;
      const sent = call({ op: 'write', id, slot: sentSlot, length: filled }).then(() =>
        free.push(sentSlot),
      );
      // Awaited in turn below; until then a failure must not count as unhandled.
      sent.catch(() => undefined);
      inFlight.push(sent);
      filled = 0;
      // The oldest write ends before its slot is filled again (a failed one throws here).
      while (free.length === 0) await inFlight.shift();
      slot = free.pop()!;
      batch = slotBuffer(slot);
    };
    let failure: { error: unknown } | undefined;
    try {
      for await (const chunk of body.iterator({ destroyOnReturn: false })) {
        try {
          check(chunk as Buffer);
        } catch (error) {
          failure = { error };
          break;
        }
        for (let offset = 0; offset < (chunk as Buffer).length;) {
          const copied = (chunk as Buffer).copy(batch, filled, offset);
          filled += copied;
          offset += copied;
          if (filled === BATCH_BYTES) await send();
        }
      }
      if (!failure) await send();
    } catch (error) {
      failure = { error };
      // What arrived before a connection broke stays (the client resumes from there).
      await send().catch(() => undefined);
    }
    const written = await Promise.allSettled(inFlight);
    await call({ op: 'close', id }).catch(() => undefined);
    if (failure) throw failure.error;
    const writeFailed = written.find((result) => result.status === 'rejected');
    if (writeFailed) throw writeFailed.reason;
    return { hashed };
  }

  return {
    append,

    /** The upload's SHA-256 and SHA-1 when the thread hashed exactly its `size` bytes. */
    async digests(id: string, size: number): Promise<UploadDigests | undefined> {
      if (!worker) return undefined;
      return (await call({ op: 'digests', id, size }).catch(() => undefined))?.digests;
    },

    /** Drops what the thread keeps of an upload (removed, cancelled, ended another way). */
    forget(id: string) {
      if (worker) call({ op: 'forget', id }).catch(() => undefined);
    },

    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}

export type UploadWriter = ReturnType<typeof createUploadWriter>;
