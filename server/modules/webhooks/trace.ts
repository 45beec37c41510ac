import { appendFileSync } from 'node:fs';

/**
 * A debug trace of the dispatcher (docs/webhooks.md, "Where the time goes"): with
 * DEPOT_WEBHOOK_TRACE=<file>, it appends JSON lines of its rounds, fan-outs, claims, attempts
 * and records, and the outbox's and queue's depth every 250 ms, times in epoch ms;
 * bench/webhooks-trace.mjs reads them. Off (the default), nothing is kept or written.
 */
const file = process.env.DEPOT_WEBHOOK_TRACE ?? '';
let lines: string[] = [];

export const tracing = file !== '';
export const at = () => performance.timeOrigin + performance.now();

export function trace(entry: Record<string, unknown>) {
  if (!tracing) return;
  lines.push(JSON.stringify(entry));
}

if (tracing) {
  const flush = () => {
    if (lines.length === 0) return;
    const text = lines.join('\n') + '\n';
    lines = [];
    appendFileSync(file, text);
  };
  setInterval(flush, 250).unref();
  process.on('exit', flush);
}
