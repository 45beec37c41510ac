import type { EarlierIndex } from './pack-lookup.ts';

/**
 * Pack files (docs/backup.md, "Format (version 2)"): a backup's binaries appended to one
 * file, as restic, borg and git store objects, with a sorted index beside it. Writing one
 * large file sequentially costs what `tar` costs; creating a file per blob cost five times
 * as much on the disks we measured.
 *
 *   <name>.pack   "DEPOTPK1", then per blob: SHA-256 (32 bytes), length (u64 BE), the bytes
 *   <name>.idx    "DEPOTIX1", then per blob, sorted by SHA-256: SHA-256 (32 bytes),
 *                 offset of its bytes in the pack (u64 BE), length (u64 BE)
 *
 * The pack alone can be walked (each record says its length), the index makes a look-up
 * unnecessary: a backup's blob list, sorted by SHA-256, is merged against the indexes.
 */
export const PACK_MAGIC = Buffer.from('DEPOTPK1');
export const INDEX_MAGIC = Buffer.from('DEPOTIX1');
export const PACK_SUFFIX = '.pack';
export const INDEX_SUFFIX = '.idx';
export const INDEX_ENTRY = 48;
/** A pack record's header: the blob's SHA-256 and its length. */
export const RECORD_HEADER = 40;
/** Blobs up to this size are read whole into the batch; larger ones a chunk at a time. */
export const SMALL_BLOB = 1024 * 1024;
/**
 * Bytes gathered before one write to the pack (one system call for hundreds of small blobs);
 * the pack thread holds two such buffers.
 */
export const WRITE_BATCH = 4 * 1024 * 1024;
/** Bytes written between two flushes to disk started in the background. */
export const WRITEBACK_BYTES = 64 * 1024 * 1024;
/** A blob as the pack's thread is sent it, and as a BlobList keeps it: SHA-256, size u64 BE. */
export const BLOB_ENTRY = 40;

/** A u64 (big-endian) at `at`, for values below 2^53 (sizes and offsets). */
export function writeU64(buffer: Buffer, value: number, at: number) {
  buffer.writeUInt32BE(Math.floor(value / 2 ** 32), at);
  buffer.writeUInt32BE(value >>> 0, at + 4);
}

export const readU64 = (buffer: Buffer, at: number) =>
  buffer.readUInt32BE(at) * 2 ** 32 + buffer.readUInt32BE(at + 4);

/** Writes one blob entry (`BLOB_ENTRY` bytes) at `at`, refusing a name that is not a SHA-256. */
export function writeBlobEntry(buffer: Buffer, at: number, sha256: string, size: number) {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('a blob of the backup is misnamed');
  buffer.write(sha256, at, 32, 'hex');
  writeU64(buffer, size, at + 32);
}

export const sizeMismatch = (sha256: string, actual: number, expected: number) =>
  new Error(
    `The binary ${sha256} is ${actual} bytes in the filestore, the database says ${expected}`,
  );

/** Blobs handed to the pack's thread per message. */
export const BLOBS_PER_MESSAGE = 1024;
/** Messages sent ahead of the thread's answers: enough that it never waits for the next. */
export const MESSAGES_AHEAD = 4;

/** What the pack's thread is started with (pack-worker.ts). */
export interface PackThreadData {
  packPath: string;
  indexPath: string;
  /** The filestore's root: a blob's file is `root/ab/cd/<sha256>`. */
  root: string;
  /** One Int32 the main thread sets to 1 to stop the pack between two blobs. */
  stop: SharedArrayBuffer;
  /**
   * MESSAGES_AHEAD slots of BLOBS_PER_MESSAGE blobs (`BLOB_ENTRY` bytes each), filled by the
   * main thread and read by the pack's: a slot is filled again only once the thread has
   * answered the message that named it. Nothing is allocated per message, on either side
   * (a buffer per message was freed only at the threads' full collections: 40 MB at a
   * million blobs).
   */
  slots: SharedArrayBuffer;
  /**
   * The indexes of the packs already in the target (an incremental backup's): a blob one of
   * them holds is passed over, not packed again.
   */
  earlier: EarlierIndex[];
}

export const slotsBytes = () => MESSAGES_AHEAD * BLOBS_PER_MESSAGE * BLOB_ENTRY;

/** The blobs in `slot`'s first `count` entries; the end; a stop. */
export type PackThreadRequest = { slot: number; count: number } | { end: true } | { stop: true };

/** What a pack took, and the earlier packs that held the blobs it passed over. */
export interface PackReport {
  count: number;
  bytes: number;
  usedPacks: string[];
}

/** A message's blobs done (packed or held by an earlier pack, counted since the start); the end. */
export type PackThreadReply =
  { passed: number; passedBytes: number } | { done: PackReport } | { error: string; code?: string };
