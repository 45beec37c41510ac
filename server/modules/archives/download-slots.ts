/**
 * A counting semaphore without a queue: a folder download either gets a slot at once or is
 * refused, so a burst of requests cannot pile up archives waiting on the disk. Slots are
 * per server process; each process of a cluster enforces its own limit.
 */
export class DownloadSlots {
  private used = 0;

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.used;
  }

  /** A release function when a slot was free (call it once, more calls do nothing), else undefined. */
  tryAcquire(): (() => void) | undefined {
    if (this.used >= this.limit) return undefined;
    this.used += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= 1;
    };
  }
}
