/**
 * A counting semaphore without a queue: a folder download either gets a slot at once or is
 * refused, so a burst of requests cannot pile up archives waiting on the disk. Slots are
 * per server process; each process of a cluster enforces its own limit.
 */
export class DownloadSlots {
  private used = 0;

  get inUse(): number {
    return this.used;
  }

  /**
   * A release function when fewer than `limit` slots are taken (call it once, more calls do
   * nothing), else undefined. The limit is the caller's: an admin may change it any time.
   */
  tryAcquire(limit: number): (() => void) | undefined {
    if (this.used >= limit) return undefined;
    this.used += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= 1;
    };
  }
}
