import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import type { BlobRow } from './metadata-lines.ts';
import { BLOB_ENTRY, readU64, writeBlobEntry } from './pack-format.ts';

/** The list's file in a backup's temp directory, removed before the backup is renamed. */
export const BLOB_LIST_FILE = '.blob-list';

/** One entry: the SHA-256 (32 bytes) and the size (u64 big-endian). */
const ENTRY = BLOB_ENTRY;
/** Entries read per read: 160 kB. */
const READ_ENTRIES = 4096;

/**
 * The blob rows a full dump has read so far, handed to the pack while the dump goes on
 * (docs/backup.md, "Runs"): the dump appends each page of blob rows, the pack reads behind
 * it and waits when it has caught up, until the dump says the rows are all in. The entries go
 * to a file beside the backup, not to memory: a dump that runs ahead of the pack by a million
 * rows holds 40 MB of the page cache, not of the process. Removed when the backup ends.
 */
export class BlobList {
  private readonly fd: number;
  private written = 0;
  private ended = false;
  private failure?: Error;
  private wake?: () => void;
  private removed = false;
  private pageBuffer = Buffer.alloc(0);

  constructor(private readonly path: string) {
    this.fd = openSync(path, 'wx+');
  }

  /** How many rows the dump has added so far. */
  get added() {
    return this.written;
  }

  /** Appends one page of the dump's blob rows, in the dump's order. */
  add(rows: readonly { sha256: string; size: string }[]) {
    if (rows.length === 0) return;
    // One buffer, reused: a buffer per page was freed only at full collections.
    if (this.pageBuffer.length < rows.length * ENTRY)
      this.pageBuffer = Buffer.allocUnsafe(rows.length * ENTRY);
    const page = this.pageBuffer.subarray(0, rows.length * ENTRY);
    rows.forEach(({ sha256, size }, i) => writeBlobEntry(page, i * ENTRY, sha256, Number(size)));
    let done = 0;
    while (done < page.length)
      done += writeSync(this.fd, page, done, page.length - done, this.written * ENTRY + done);
    this.written += rows.length;
    this.wakeReader();
  }

  /** Every blob row is in: the reader ends once it has read them. */
  end() {
    this.ended = true;
    this.wakeReader();
  }

  /** The dump failed: the reader fails too instead of waiting for rows that never come. */
  fail(error: Error) {
    this.failure ??= error;
    this.wakeReader();
  }

  /** The rows, in order, as the dump adds them. */
  async *rows(): AsyncGenerator<BlobRow> {
    const chunk = Buffer.allocUnsafe(READ_ENTRIES * ENTRY);
    let read = 0;
    for (;;) {
      if (this.failure) throw this.failure;
      if (read === this.written) {
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      const entries = Math.min(READ_ENTRIES, this.written - read);
      const bytes = readSync(this.fd, chunk, 0, entries * ENTRY, read * ENTRY);
      if (bytes !== entries * ENTRY) throw new Error('the list of blobs to back up is cut short');
      read += entries;
      for (let at = 0; at < bytes; at += ENTRY)
        yield {
          sha256: chunk.toString('hex', at, at + 32),
          size: readU64(chunk, at + 32),
        };
    }
  }

  /** Closes and removes the file (once; a file already gone with its directory is fine). */
  remove() {
    if (this.removed) return;
    this.removed = true;
    this.fail(new Error('the list of blobs to back up was closed'));
    closeSync(this.fd);
    try {
      unlinkSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  private wakeReader() {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
