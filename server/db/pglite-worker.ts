// The embedded database's thread. PGlite is PostgreSQL compiled to WebAssembly: run on the
// main thread, every query's work stops the event loop that serves HTTP. Here it runs
// beside it; the main thread sends SQL and receives rows (embedded-database.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { openPGlite } from './pglite-open.ts';
import type { WorkerReply, WorkerRequest } from './embedded-database.ts';

const port = parentPort!;
const post = (reply: WorkerReply) => port.postMessage(reply);

/** What a caller needs of a database error: its text and PostgreSQL's fields (code, ...). */
function describeError(error: unknown) {
  const { message, code, detail, constraint, table, column, severity } = error as Record<
    string,
    string | undefined
  >;
  return { message: message ?? String(error), code, detail, constraint, table, column, severity };
}

try {
  const pglite = await openPGlite((workerData as { home: string }).home);
  port.on('message', async (request: WorkerRequest) => {
    if (request.type === 'close') {
      await pglite.close();
      post({ type: 'closed' });
      port.close();
      return;
    }
    try {
      const result = await pglite.query(request.sql, request.parameters);
      post({
        type: 'result',
        id: request.id,
        rows: result.rows,
        affectedRows: result.affectedRows,
      });
    } catch (error) {
      post({ type: 'error', id: request.id, error: describeError(error) });
    }
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', error: describeError(error) });
}
