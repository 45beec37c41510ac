import { PassThrough, pipeline, Transform, type Readable } from 'node:stream';

/**
 * Passes an upstream body on to the cache and copies it to the client as it goes. The last
 * chunk is held back until the cache has the whole body, verified: a client never receives
 * a complete-looking copy of a body that turned out bad; it sees the connection break.
 * A client that goes away is dropped; the download into the cache carries on.
 */
class ClientTee extends Transform {
  readonly client = new PassThrough();
  private held: Buffer | undefined;
  private forwarding = false;

  constructor(private readonly onFirstBytes: () => void) {
    super();
    // The failure is reported to whoever reads the client copy (the reply aborts); before
    // anyone does, it must not become an uncaught 'error' event.
    this.client.on('error', () => undefined);
  }

  get started(): boolean {
    return this.forwarding;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const previous = this.held;
    this.held = chunk;
    this.push(chunk);
    if (previous) this.forward(previous, done);
    else done();
  }

  /** Writes to the client; a slow client slows the download, a gone one no longer counts. */
  private forward(chunk: Buffer, then: () => void): void {
    const client = this.client;
    if (client.destroyed) return then();
    if (!this.forwarding) {
      this.forwarding = true;
      this.onFirstBytes();
    }
    if (client.write(chunk)) return then();
    const resume = () => {
      client.off('drain', resume);
      client.off('close', resume);
      then();
    };
    client.on('drain', resume);
    client.on('close', resume);
  }

  /** The cache holds the verified body: the client gets its last bytes. */
  release(): void {
    if (!this.forwarding) this.client.destroy();
    else if (!this.client.destroyed) this.client.end(this.held);
  }

  fail(error: Error): void {
    this.client.destroy(error);
  }
}

export interface TeeDownload<T> {
  /**
   * The client's copy, once bytes flow; undefined when the download finished before any
   * byte went out (answer from the cache then); rejects when it failed before that.
   */
  client: Promise<Readable | undefined>;
  /** What the cache recorded; rejects when nothing was cached. */
  done: Promise<T>;
}

/**
 * Streams an upstream body into the cache (`cache` stages, verifies and records it) and, with
 * `withClient`, to the client at the same time, instead of making it wait for the whole file.
 */
export function teeIntoCache<T>(
  upstream: Readable,
  cache: (body: Readable) => Promise<T>,
  withClient: boolean,
): TeeDownload<T> {
  let firstBytes!: () => void;
  const started = new Promise<void>((resolve) => (firstBytes = resolve));
  const tee = new ClientTee(firstBytes);
  // An upstream that breaks off fails the tee, and with it the cache's write.
  const body = pipeline(upstream, tee, () => undefined);
  const done = cache(body).then(
    (result) => {
      tee.release();
      return result;
    },
    (error: Error) => {
      upstream.destroy(); // nothing more of it is wanted
      tee.fail(error);
      throw error;
    },
  );
  if (!withClient) {
    tee.client.destroy();
    return { client: Promise.resolve(undefined), done };
  }
  const client = Promise.race([
    started.then(() => tee.client as Readable),
    done.then(() => undefined),
  ]);
  return { client, done };
}
