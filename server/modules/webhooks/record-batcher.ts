import type { SendingRecord } from './record-queries.ts';
import { at, trace } from './trace.ts';

interface Waiting {
  record: SendingRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const merged = (waiting: Waiting[]): SendingRecord => ({
  attempts: waiting.flatMap((entry) => entry.record.attempts),
  released: waiting.flatMap((entry) => entry.record.released),
  cancelled: waiting.flatMap((entry) => entry.record.cancelled),
  paused: waiting.flatMap((entry) => entry.record.paused),
});

/**
 * Writes sending records as a group commit does: one write at a time, each carrying every
 * record that arrived while the one before it ran. Under load many subscriptions' runs end
 * together, and their outcomes then cost one transaction rather than one each (the embedded
 * database runs one statement at a time, the deploys' included).
 */
export function createRecordBatcher(write: (record: SendingRecord) => Promise<void>) {
  let queued: Waiting[] = [];
  let writing: Promise<void> | undefined;

  async function writeQueued() {
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        const b0 = at();
        const all = merged(batch);
        await write(all);
        trace({ k: 'batch', t: at(), ms: at() - b0, runs: batch.length, n: all.attempts.length });
        batch.forEach((entry) => entry.resolve());
      } catch (error) {
        batch.forEach((entry) => entry.reject(error));
      }
    }
    writing = undefined;
  }

  return {
    /** Resolves once the record is written (with the others of its group). */
    add(record: SendingRecord): Promise<void> {
      return new Promise((resolve, reject) => {
        queued.push({ record, resolve, reject });
        writing ??= writeQueued();
      });
    },
  };
}
