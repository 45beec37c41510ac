import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../workers/module-worker.ts';
import type { BlobRow } from './metadata-lines.ts';
import {
  BLOB_ENTRY,
  BLOBS_PER_MESSAGE,
  INDEX_ENTRY,
  INDEX_MAGIC,
  INDEX_SUFFIX,
  MESSAGES_AHEAD,
  slotsBytes,
  SMALL_BLOB,
  type PackReport,
  type PackThreadData,
  type PackThreadReply,
  type PackThreadRequest,
  writeBlobEntry,
} from './pack-format.ts';

import type { EarlierIndex } from './pack-lookup.ts';

export { INDEX_MAGIC, INDEX_SUFFIX, PACK_MAGIC, PACK_SUFFIX } from './pack-format.ts';
export type { PackReport } from './pack-format.ts';

export interface IndexEntry {
  sha256: string;
  offset: number;
  length: number;
  pack: string;
}

/** Where a pack goes, where its blobs are read, and the packs already holding some. */
export interface PackFiles {
  packPath: string;
  indexPath: string;
  /** The filestore's root: each blob is read from its file there. */
  filestoreRoot: string;
  /** Earlier packs' indexes: a blob one of them holds is passed over (an incremental backup). */
  earlier?: EarlierIndex[];
}

/** The pack thread's young generation (MB). */
const PACK_THREAD_YOUNG_MB = 2;

/**
 * Writes `blobs` (sorted by SHA-256, strictly) into `packPath` and its index into
 * `indexPath`, each blob read from its file in the filestore under `filestoreRoot`, except
 * those an `earlier` pack holds. The files
 * are read and the pack written by a thread of its own (pack-worker.ts) with synchronous
 * calls: an asynchronous read cost a trip through libuv's thread pool for each of open, stat,
 * read and close, three times the time of these reads on the benchmark's 10 kB files, and on
 * the main thread the reads took turns with the metadata dump running beside the pack.
 * `onProgress` hears the blobs and bytes done so far (packed or passed over), a batch at a
 * time. A blob whose file
 * is not the size the metadata says fails the backup. Both files are whole on disk when this
 * answers, before the caller renames them into place.
 */
export async function writePack(
  files: PackFiles,
  blobs: Iterable<BlobRow> | AsyncIterable<BlobRow>,
  onProgress: (count: number, bytes: number) => void,
  stopping?: AbortSignal,
): Promise<PackReport> {
  const thread = new PackThread({
    packPath: files.packPath,
    indexPath: files.indexPath,
    root: files.filestoreRoot,
    stop: new SharedArrayBuffer(4),
    slots: new SharedArrayBuffer(slotsBytes()),
    earlier: files.earlier ?? [],
  });
  const stop = () => thread.stop();
  stopping?.addEventListener('abort', stop);
  try {
    for await (const blob of blobs) {
      stopping?.throwIfAborted();
      await thread.add(blob, onProgress);
    }
    const report = await thread.end(onProgress);
    stopping?.throwIfAborted();
    return report;
  } catch (error) {
    await thread.stop();
    throw stopping?.aborted ? stopping.reason : error;
  } finally {
    stopping?.removeEventListener('abort', stop);
  }
}

/**
 * The pack's thread seen from here: blobs go into the shared slots, a message per full slot,
 * at most MESSAGES_AHEAD ahead of its answers; its first failure (or its exit before the end)
 * fails whatever waits next.
 */
class PackThread {
  private readonly worker: Worker;
  private readonly stopFlag: Int32Array;
  private readonly slots: Buffer;
  /** The slot being filled, and how many blobs are in it. */
  private slot = 0;
  private inSlot = 0;
  private readonly replies: PackThreadReply[] = [];
  private waiting?: () => void;
  private inFlight = 0;
  private failure?: Error;
  private readonly exited: Promise<void>;

  constructor(data: PackThreadData) {
    this.stopFlag = new Int32Array(data.stop);
    this.slots = Buffer.from(data.slots);
    this.worker = startModuleWorker(import.meta.url, 'pack-worker', {
      workerData: data,
      // Its garbage is a few strings a blob: a small young generation keeps its memory small.
      resourceLimits: { maxYoungGenerationSizeMb: PACK_THREAD_YOUNG_MB },
    });
    this.worker.on('message', (reply: PackThreadReply) => {
      this.replies.push(reply);
      this.wake();
    });
    this.worker.on('error', (error) => {
      this.failure ??= error;
      this.wake();
    });
    this.exited = new Promise((resolve) =>
      this.worker.on('exit', () => {
        this.failure ??= new Error('the pack thread ended before the pack did');
        this.wake();
        resolve();
      }),
    );
  }

  /** Puts a blob into the slot being filled; a full slot goes to the thread. */
  async add({ sha256, size }: BlobRow, onProgress: (count: number, bytes: number) => void) {
    // A slot is filled again only once the message that last named it is answered.
    if (this.inSlot === 0) while (this.inFlight >= MESSAGES_AHEAD) await this.reply(onProgress);
    const at = (this.slot * BLOBS_PER_MESSAGE + this.inSlot) * BLOB_ENTRY;
    writeBlobEntry(this.slots, at, sha256, size);
    this.inSlot += 1;
    if (this.inSlot === BLOBS_PER_MESSAGE) this.send();
  }

  /** Hands the slot being filled to the thread and turns to the next. */
  private send() {
    if (this.inSlot === 0) return;
    this.worker.postMessage({ slot: this.slot, count: this.inSlot } satisfies PackThreadRequest);
    this.inFlight += 1;
    this.slot = (this.slot + 1) % MESSAGES_AHEAD;
    this.inSlot = 0;
  }

  async end(onProgress: (count: number, bytes: number) => void): Promise<PackReport> {
    this.send();
    this.worker.postMessage({ end: true } satisfies PackThreadRequest);
    for (;;) {
      const reply = await this.reply(onProgress);
      if ('done' in reply) {
        await this.exited;
        return reply.done;
      }
    }
  }

  /** Stops the thread between two blobs and waits until it has closed its files and ended. */
  async stop() {
    Atomics.store(this.stopFlag, 0, 1);
    this.worker.postMessage({ stop: true } satisfies PackThreadRequest);
    await this.exited;
  }

  /** The thread's next answer: progress is told, a failure thrown. */
  private async reply(onProgress: (count: number, bytes: number) => void) {
    for (;;) {
      const reply = this.replies.shift();
      if (reply) {
        if ('error' in reply) throw Object.assign(new Error(reply.error), { code: reply.code });
        if ('passed' in reply) {
          this.inFlight -= 1;
          onProgress(reply.passed, reply.passedBytes);
        }
        return reply;
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}

/** The entries of one pack's index, in order, read a block at a time (memory stays flat). */
export async function* indexEntries(indexPath: string, pack: string): AsyncGenerator<IndexEntry> {
  const handle = await open(indexPath, 'r');
  try {
    const magic = Buffer.alloc(INDEX_MAGIC.length);
    await handle.read(magic, 0, magic.length, 0);
    if (!magic.equals(INDEX_MAGIC)) throw new Error(`${pack}${INDEX_SUFFIX} is not a pack index`);
    const block = Buffer.alloc(INDEX_ENTRY * 4096);
    let position = INDEX_MAGIC.length;
    for (;;) {
      const { bytesRead } = await handle.read(block, 0, block.length, position);
      if (bytesRead % INDEX_ENTRY !== 0) throw new Error(`${pack}${INDEX_SUFFIX} is truncated`);
      for (let at = 0; at < bytesRead; at += INDEX_ENTRY)
        yield {
          sha256: block.toString('hex', at, at + 32),
          offset: Number(block.readBigUInt64BE(at + 32)),
          length: Number(block.readBigUInt64BE(at + 40)),
          pack,
        };
      if (bytesRead < block.length) return;
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * The entries of several sorted indexes as one sorted stream (a k-way merge on a small heap:
 * a chain of incremental backups has one pack per run). A SHA-256 in several packs comes
 * once, from the first pack listed.
 */
export async function* mergedIndexes(
  indexes: { path: string; pack: string }[],
): AsyncGenerator<IndexEntry> {
  const heads: { entry: IndexEntry; rank: number; rest: AsyncGenerator<IndexEntry> }[] = [];
  try {
    for (const [rank, { path, pack }] of indexes.entries()) {
      const rest = indexEntries(path, pack);
      const first = await rest.next();
      if (!first.done) heads.push({ entry: first.value, rank, rest });
    }
    const before = (a: (typeof heads)[number], b: (typeof heads)[number]) =>
      a.entry.sha256 < b.entry.sha256 || (a.entry.sha256 === b.entry.sha256 && a.rank < b.rank);
    const heap = new MinHeap(heads, before);
    let last = '';
    while (heap.size > 0) {
      const top = heap.peek();
      if (top.entry.sha256 !== last) yield top.entry;
      last = top.entry.sha256;
      const next = await top.rest.next();
      if (next.done) heap.pop();
      else {
        top.entry = next.value;
        heap.siftDown(0);
      }
    }
  } finally {
    await Promise.allSettled(heads.map((head) => head.rest.return(undefined)));
  }
}

class MinHeap<T> {
  constructor(
    private readonly items: T[],
    private readonly before: (a: T, b: T) => boolean,
  ) {
    for (let i = (items.length >> 1) - 1; i >= 0; i -= 1) this.siftDown(i);
  }
  get size() {
    return this.items.length;
  }
  peek() {
    return this.items[0];
  }
  pop() {
    const last = this.items.pop()!;
    if (this.items.length > 0) {
      this.items[0] = last;
      this.siftDown(0);
    }
  }
  siftDown(start: number) {
    const { items, before } = this;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < items.length && before(items[left], items[least])) least = left;
      if (right < items.length && before(items[right], items[least])) least = right;
      if (least === i) return;
      [items[i], items[least]] = [items[least], items[i]];
      i = least;
    }
  }
}

/**
 * Walks a sorted stream of index entries alongside ascending SHA-256s: `find` answers the
 * entry of each, or undefined when no pack holds it. No look-up per blob on disk: both
 * lists are read once, in order.
 */
export function indexCursor(entries: AsyncGenerator<IndexEntry>) {
  let current: IndexEntry | undefined;
  let started = false;
  let done = false;
  let previous = '';
  return {
    async find(sha256: string): Promise<IndexEntry | undefined> {
      if (sha256 <= previous) throw new Error('blobs must be looked for in SHA-256 order');
      previous = sha256;
      if (!started) {
        started = true;
        const first = await entries.next();
        current = first.done ? undefined : first.value;
        done = Boolean(first.done);
      }
      while (!done && current && current.sha256 < sha256) {
        const next = await entries.next();
        current = next.done ? undefined : next.value;
        done = Boolean(next.done);
      }
      return current?.sha256 === sha256 ? current : undefined;
    },
    close: () => entries.return(undefined),
  };
}

/** Opens blobs of packs by their index entries; one file handle per pack, kept open. */
export function packReader(packPathOf: (pack: string) => string) {
  const handles = new Map<string, Promise<FileHandle>>();
  const handleOf = (pack: string) => {
    let handle = handles.get(pack);
    if (!handle) {
      handle = open(packPathOf(pack), 'r');
      handles.set(pack, handle);
    }
    return handle;
  };
  return {
    async open(entry: IndexEntry): Promise<Readable> {
      return Readable.from(bytesOf(await handleOf(entry.pack), entry));
    },
    async close() {
      const opened = await Promise.allSettled(handles.values());
      for (const result of opened) if (result.status === 'fulfilled') await result.value.close();
    },
  };
}

/**
 * A blob's bytes from its pack, a chunk at a time, by positioned reads (the handle is shared
 * by every blob of the pack). A pack cut short ends the blob early: the restore's hash and
 * size check then refuse it.
 */
async function* bytesOf(handle: FileHandle, entry: IndexEntry): AsyncGenerator<Buffer> {
  let position = entry.offset;
  const end = entry.offset + entry.length;
  while (position < end) {
    const chunk = Buffer.allocUnsafe(Math.min(SMALL_BLOB, end - position));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield chunk.subarray(0, bytesRead);
  }
}
