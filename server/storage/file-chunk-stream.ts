import { close, fstat, open, read } from 'node:fs';
import { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** 1 MiB reads: 64 KiB ones make large downloads pay per-chunk overhead 16 times over. */
export const FILE_CHUNK_BYTES = 1024 * 1024;

/**
 * A stored file's bytes, whole or one range (`end` inclusive, as HTTP writes it), in chunks
 * of up to 1 MiB.
 *
 * Piped straight into an HTTP response, it reuses its chunk buffers once the response has
 * handed them to the kernel. A fresh 1 MiB buffer per chunk (what `fs.createReadStream`
 * does) makes V8 count every byte sent as new external memory, and that pressure starts a
 * full garbage collection every few dozen megabytes: in Depot's heap, more CPU than sending
 * the bytes (docs/architecture.md, "Storage benchmark"). Consumed any other way (a transform, an
 * archive, a hash, `for await`), every chunk is a new buffer its consumer may keep.
 */
export class FileChunkStream extends Readable {
  readonly #path: string;
  #fd: number | undefined;
  #position: number;
  #end: number;
  /** Undefined until piped; null when the consumer cannot say when it is done with a chunk. */
  #response: ServerResponse | null | undefined;
  #pushedBytes = 0;
  /** Chunks pushed while piped into `#response`, oldest first, with the byte count after each. */
  readonly #handedOver: Array<{ buffer: Buffer; endsAt: number }> = [];
  readonly #spare: Buffer[] = [];
  /** Set while a read is under way: closing the file must wait for it. */
  #closeAfterRead: (() => void) | undefined;
  #reading = false;
  /** How many buffers this stream allocated (tests check that a response's are reused). */
  buffersAllocated = 0;

  constructor(path: string, range?: { start: number; end: number }) {
    super({ highWaterMark: FILE_CHUNK_BYTES });
    this.#path = path;
    this.#position = range?.start ?? 0;
    this.#end = range ? range.end + 1 : Infinity;
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // Only a response, as the one consumer, is known to copy a chunk into the kernel and let
    // go of it; a second consumer, or a transform passing chunks on, might keep it.
    this.#response =
      this.#response === undefined && destination instanceof ServerResponse ? destination : null;
    return super.pipe(destination, options);
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.#path, 'r', (openError, fd) => {
      if (openError) return callback(openError);
      this.#fd = fd;
      // The size bounds the buffers: a 200 KiB file is read into 200 KiB, not 1 MiB.
      fstat(fd, (statError, stats) => {
        if (!statError) this.#end = Math.min(this.#end, stats.size);
        callback(statError);
      });
    });
  }

  override _read(): void {
    const length = Math.min(FILE_CHUNK_BYTES, this.#end - this.#position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = this.#freeBuffer(length);
    this.#reading = true;
    read(this.#fd!, buffer, 0, length, this.#position, (error, bytesRead) => {
      this.#reading = false;
      if (this.#closeAfterRead) return this.#closeAfterRead();
      if (error) return this.destroy(error);
      // A file shorter than its range ends early, as fs.createReadStream's does.
      if (bytesRead === 0) return void this.push(null);
      this.#position += bytesRead;
      this.#pushedBytes += bytesRead;
      if (this.#response) this.#handedOver.push({ buffer, endsAt: this.#pushedBytes });
      this.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    });
  }

  /** A buffer of at least `length` bytes that nothing holds any more, else a new one. */
  #freeBuffer(length: number): Buffer {
    const response = this.#response;
    if (response) {
      // Bytes the response still holds (its headers among them, which only makes this more
      // cautious) and bytes not yet taken from this stream: everything before them has been
      // written to the socket, that is, copied by the kernel.
      const written = this.#pushedBytes - this.readableLength - response.writableLength;
      while (this.#handedOver.length > 0 && this.#handedOver[0]!.endsAt <= written)
        this.#spare.push(this.#handedOver.shift()!.buffer);
    }
    // Spares were made for earlier, never shorter, reads: any of them is long enough.
    const spare = this.#spare.pop();
    if (spare && spare.length >= length) return spare;
    this.buffersAllocated++;
    return Buffer.allocUnsafeSlow(length);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#handedOver.length = 0;
    this.#spare.length = 0;
    const fd = this.#fd;
    const closeFile = () => (fd === undefined ? callback(error) : close(fd, () => callback(error)));
    // The descriptor's number could be reused while a read of it is still under way.
    if (this.#reading) this.#closeAfterRead = closeFile;
    else closeFile();
  }
}
