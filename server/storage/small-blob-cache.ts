import { readFile } from 'node:fs/promises';

/**
 * Keeps the content of small blobs in memory, least recently used first out, within a byte
 * budget. Blobs are content-addressed, so an entry can never go stale: the same SHA-256 is
 * the same bytes for ever. It spares the open, read and close of a file on every download
 * of a small artifact (metadata files, checksums, POMs), which is where a repository spends
 * most of its requests.
 */
export class SmallBlobCache {
  readonly #entries = new Map<string, Buffer>();
  readonly #loading = new Map<string, Promise<Buffer>>();
  #bytes = 0;

  constructor(
    readonly maxFileBytes: number,
    private readonly maxTotalBytes: number,
  ) {}

  /** The blob's content, from memory or read from `path` (concurrent misses read once). */
  async get(sha256: string, path: string): Promise<Buffer> {
    const cached = this.#entries.get(sha256);
    if (cached) {
      // Map keeps insertion order: moving the entry to the end marks it recently used.
      this.#entries.delete(sha256);
      this.#entries.set(sha256, cached);
      return cached;
    }
    let loading = this.#loading.get(sha256);
    if (!loading) {
      loading = readFile(path).finally(() => this.#loading.delete(sha256));
      this.#loading.set(sha256, loading);
      loading.then((content) => this.#remember(sha256, content)).catch(() => undefined);
    }
    return loading;
  }

  /** The blob's content if it is in memory now; a reader that must not wait asks this. */
  peek(sha256: string): Buffer | undefined {
    return this.#entries.get(sha256);
  }

  /** Drops a blob that was removed from the filestore. */
  forget(sha256: string): void {
    const content = this.#entries.get(sha256);
    if (!content) return;
    this.#entries.delete(sha256);
    this.#bytes -= content.length;
  }

  #remember(sha256: string, content: Buffer): void {
    if (content.length > this.maxFileBytes || this.#entries.has(sha256)) return;
    this.#entries.set(sha256, content);
    this.#bytes += content.length;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.maxTotalBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.length;
    }
  }
}
