// The embedded database's thread. PGlite is PostgreSQL compiled to WebAssembly: run on the
// main thread, every query's work stops the event loop that serves HTTP. Here it runs
// beside it; the main thread sends SQL and receives rows (embedded-database.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { openPGlite } from './pglite-open.ts';
import type { ErrorFields, WorkerReply, WorkerRequest } from './embedded-database.ts';

const port = parentPort!;
const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) =>
  port.postMessage(reply, transfer);

/** What a caller needs of a database error: its text and PostgreSQL's fields (code, ...). */
function describeError(error: unknown): ErrorFields {
  const { message, code, detail, constraint, table, column, severity } = error as Record<
    string,
    string | undefined
  >;
  return { message: message ?? String(error), code, detail, constraint, table, column, severity };
}

/**
 * PostgreSQL ends a session on FATAL and the whole server on PANIC (a WAL write that found
 * the disk full, say), then recovers from the WAL in a fresh process. PGlite is that one
 * session in one WebAssembly instance: it reports either as a plain error and carries on
 * with the failed write's locks still held, and its next query spins forever. After one of
 * these the instance is never used again.
 */
const endsTheInstance = (error: ErrorFields) =>
  error.severity === 'PANIC' || error.severity === 'FATAL';

/** PostgreSQL's log while starting (recent lines): PGlite says only that start-up failed. */
const startLog: string[] = [];
let starting = true;
function keepStartLog(line: string) {
  if (!starting) return false;
  startLog.push(line);
  if (startLog.length > 20) startLog.shift();
  return false;
}

/** Why start-up failed, in PostgreSQL's words when its log says (the last FATAL or PANIC). */
function startFailure(error: unknown): ErrorFields {
  const reason = startLog.findLast((line) => /\b(FATAL|PANIC):/.test(line));
  if (!reason) return describeError(error);
  const [, severity, message] = /\b(FATAL|PANIC):\s*(.*)$/.exec(reason)!;
  // Start-up writes the WAL too (crash recovery ends with a checkpoint); the log line carries
  // no SQLSTATE, so ENOSPC's text marks it as the disk_full (53100) a query would have met.
  const code = message.includes('No space left on device') ? '53100' : '57P03';
  return { message, severity, code };
}

try {
  const { home, templates } = workerData as { home: string; templates: string[] };
  const pglite = await openPGlite(home, { onStderr: keepStartLog, templates });
  starting = false;
  let instanceEnded = false;

  async function answer(request: WorkerRequest) {
    if (request.type === 'close') {
      // A shutdown checkpoint that fails (no room for the WAL) loses nothing: the WAL holds
      // every commit and the next start replays it.
      const error = instanceEnded
        ? undefined
        : await pglite.close().then(() => undefined, describeError);
      post({ type: 'closed', error });
      port.close();
      return;
    }
    // The main thread ends this thread on the reply that said so; queries sent meanwhile
    // never reach the broken instance.
    if (instanceEnded) return;
    try {
      const result = await pglite.query(request.sql, request.parameters);
      // `COPY … TO '/dev/blob'` answers bytes, not rows: one row whose `copy` holds them,
      // moved to the main thread rather than copied (a backup reads row positions so).
      if (result.blob) {
        const copy = new Uint8Array(await result.blob.arrayBuffer());
        post({ type: 'result', id: request.id, rows: [{ copy }] }, [copy.buffer]);
        return;
      }
      post({
        type: 'result',
        id: request.id,
        rows: result.rows,
        affectedRows: result.affectedRows,
      });
    } catch (caught) {
      const error = describeError(caught);
      instanceEnded = endsTheInstance(error);
      post({ type: 'error', id: request.id, error, instanceEnded });
    }
  }

  // One request at a time, in the order sent: PGlite would queue them as well, but a query
  // must not start before the one ahead of it has been seen to leave the instance usable.
  let queue = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    queue = queue.then(() => answer(request));
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', error: startFailure(error) });
}
