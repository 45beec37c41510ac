import { Transform, type TransformCallback } from 'node:stream';

/**
 * A pass-through that keeps a stream under `bytesPerSecond` (0: no limit): each chunk waits
 * until the bytes so far fit the rate since the first chunk. For copies that must not take a
 * whole volume's or link's bandwidth (the cold store's, DEPOT_COLD_STORE_KB_PER_SECOND).
 */
export function throttled(bytesPerSecond: number): Transform {
  let started = 0;
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (bytesPerSecond <= 0) return done(null, chunk);
      started ||= Date.now();
      sent += chunk.length;
      const due = started + (sent / bytesPerSecond) * 1000;
      setTimeout(() => done(null, chunk), Math.max(0, due - Date.now()));
    },
  });
}
