import { Transform } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { DepotConfig } from '../../config.ts';
import { BadRequest, DepotError } from '../../errors.ts';
import type { Compression } from './archive-reader.ts';
import { ARCHIVE_MESSAGES } from './messages.ts';

const MB = 1024 * 1024;

/** Refused for size: 413, as a deploy past a limit is. */
export class ArchiveTooLarge extends DepotError {
  constructor(message: string) {
    super(413, message);
  }
}
/** What the guard answers when it refuses: a deploy's wording unless the caller gives its own. */
export type GuardMessages = Pick<
  typeof ARCHIVE_MESSAGES,
  'tooManyEntries' | 'tooManyBytes' | 'ratioTooHigh' | 'entryChecksum'
>;

/** Below this many bytes an entry's ratio is not judged: tiny files compress absurdly well. */
const RATIO_GRACE_BYTES = MB;

/**
 * Bounds what an archive may unpack to, counting the bytes that actually come out of the
 * decompressor (headers can lie): the number of entries, the total size, and how many times
 * an entry grows over its compressed size. Exceeding one fails the stream at once, so an
 * archive bomb costs at most the limits, never its claimed size.
 */
export class BombGuard {
  private entries = 0;
  private total = 0;

  constructor(
    private readonly limits: DepotConfig['archiveDeploy'],
    private readonly messages: GuardMessages = ARCHIVE_MESSAGES,
  ) {}

  countEntry(): void {
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) {
      throw new ArchiveTooLarge(this.messages.tooManyEntries(this.limits.maxEntries));
    }
  }

  /**
   * A pass-through that meters one entry's content: the total, the growth over the
   * compressed bytes read (when the archive is compressed), and at the end what the archive
   * recorded of it (zip: CRC-32 and size).
   */
  meter(name: string, compression?: Compression, recorded?: { crc32: number; size: number }) {
    let bytes = 0;
    let crc = 0;
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        bytes += chunk.length;
        this.total += chunk.length;
        if (recorded) crc = crc32(chunk, crc);
        done(this.excess(name, bytes, compression), chunk);
      },
      flush: (done) => {
        const corrupt = recorded && (crc !== recorded.crc32 || bytes !== recorded.size);
        done(corrupt ? new BadRequest(this.messages.entryChecksum(name)) : null);
      },
    });
  }

  private excess(name: string, bytes: number, compression: Compression | undefined) {
    if (this.total > this.limits.maxSizeMb * MB) {
      return new ArchiveTooLarge(this.messages.tooManyBytes(this.limits.maxSizeMb));
    }
    if (!compression) return null;
    const grown = compression.scope === 'entry' ? bytes : this.total;
    const from = Math.max(compression.compressedRead(), 1);
    if (grown > RATIO_GRACE_BYTES && grown > this.limits.maxRatio * from) {
      return new ArchiveTooLarge(this.messages.ratioTooHigh(name, this.limits.maxRatio));
    }
    return null;
  }
}
