import type { Readable } from 'node:stream';
import { Filestore } from './filestore.ts';
import { throttled } from './throttle.ts';

/**
 * Where retention puts the bytes of archived items (docs/retention.md). Content-addressed by
 * SHA-256 like the filestore, so an item archived twice, or two items with one content, take
 * the space once. An S3-compatible store implements the same four calls.
 */
export interface ColdStore {
  /** Copies content in unless it is there; the copy is verified against `sha256` and durable. */
  put(sha256: string, open: () => Readable): Promise<void>;
  has(sha256: string): Promise<boolean>;
  read(sha256: string): Readable;
  remove(sha256: string): Promise<void>;
}

/** The cold store as a directory (best on a volume of its own): DEPOT_COLD_STORE_DIR. */
export class FilesystemColdStore implements ColdStore {
  private readonly files: Filestore;

  /** `bytesPerSecond`: the most a put copies in a second (0: no limit). */
  constructor(
    root: string,
    private readonly bytesPerSecond = 0,
  ) {
    this.files = new Filestore(root);
    this.files.sweepTemp();
  }

  async put(sha256: string, open: () => Readable): Promise<void> {
    if (await this.files.has(sha256)) return;
    const staged = await this.files.stage(this.limited(open()), { sha256 });
    try {
      await this.files.commit(staged);
    } finally {
      await this.files.discard(staged);
    }
  }

  /** The source at the configured rate; a read error still fails the copy. */
  private limited(source: Readable): Readable {
    if (this.bytesPerSecond <= 0) return source;
    const limited = source.pipe(throttled(this.bytesPerSecond));
    source.once('error', (error) => limited.destroy(error));
    return limited;
  }

  has(sha256: string): Promise<boolean> {
    return this.files.has(sha256);
  }

  read(sha256: string): Readable {
    return this.files.read(sha256);
  }

  remove(sha256: string): Promise<void> {
    return this.files.remove(sha256);
  }
}
