import type { Logger } from 'pino';
import type { TableChanges } from './table-changes.ts';

const CHANNEL = 'depot_table_changes';
const RETRY_MS = 1000;

/**
 * Listens, on a connection of its own, for the writes PostgreSQL announces on commit
 * (migration 0008) and clears the read caches that keep those tables. This is what lets
 * several Depot nodes share one database without serving each other's stale rows. While
 * the connection is down, the caches' short lifetime bounds staleness; on reconnecting,
 * everything is cleared, since notifications sent meanwhile are lost.
 */
export async function startChangeListener(
  databaseUrl: string,
  changes: TableChanges,
  logger: Logger,
): Promise<{ close(): Promise<void> }> {
  const pg = (await import('pg')).default;
  let client: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  function reconnectLater() {
    if (closed || retry) return;
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch((error) => {
        logger.warn({ err: error }, 'cache invalidation: reconnecting to the database failed');
        reconnectLater();
      });
    }, RETRY_MS);
  }

  async function connect() {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => changes.changed([message.payload ?? '']));
    next.on('error', (error) => {
      logger.warn({ err: error }, 'cache invalidation: the database connection was lost');
      next.end().catch(() => undefined);
      reconnectLater();
    });
    next.on('end', reconnectLater);
    await next.connect();
    await next.query(`listen ${CHANNEL}`);
    client = next;
    changes.changedAll();
  }

  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
