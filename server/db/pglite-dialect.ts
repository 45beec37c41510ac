import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { isBulkWork } from './bulk-work.ts';
import { isPriorityWork } from './priority-work.ts';

/** What the dialect needs of PGlite: the worker-backed EmbeddedDatabase, or PGlite itself. */
export interface PGliteLike {
  readonly waitReady: Promise<void>;
  readonly closed: boolean;
  /**
   * Counts restarts of the database (EmbeddedDatabase): a transaction begun before one has
   * lost its session and its writes, and must not go on in the next.
   */
  readonly generation?: number;
  query<R>(sql: string, parameters?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  close(): Promise<void>;
}

/**
 * Kysely over PGlite. PGlite is one session that runs queries one at a time in the order
 * they arrive. Plain queries are sent as soon as they are made; a transaction holds the
 * session from begin to commit and everyone else's queries wait for it, as they would
 * for the one connection of a one-connection pool on PostgreSQL.
 */
export class PGliteDialect implements Dialect {
  private driver?: PGliteDriver;
  constructor(private readonly pglite: PGliteLike) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    this.driver = new PGliteDriver(this.pglite);
    return this.driver;
  }
  /** Queries running and waiting now, as a pool's figures (server/db/database.ts, PoolStats). */
  stats() {
    return { size: this.driver?.running ?? 0, idle: 0, waiting: this.driver?.queued ?? 0 };
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/**
 * PostgreSQL's connection_failure: the transaction's session ended with the database
 * instance it ran in (embedded-database.ts), taking its uncommitted writes along.
 */
function transactionLost(): Error {
  return Object.assign(
    new Error(
      'The transaction was lost when the embedded database restarted; nothing of it was kept',
    ),
    { code: '08006' },
  );
}

/** A query or a transaction waiting for another connection's transaction to end. */
type Waiting = { kind: 'query'; send: () => void } | WaitingTransaction;

type WaitingTransaction = {
  kind: 'transaction';
  connection: DatabaseConnection;
  start: () => void;
  /** Begun in the priority lane (priority-work.ts). */
  priority: boolean;
};

/**
 * Priority transactions that may begin in a row ahead of one that waited longer: enough for a
 * webhook round's fan-out, claim and record, never so many that the others starve.
 */
export const PRIORITY_TURNS_IN_A_ROW = 4;

class PGliteDriver implements Driver {
  /** The open transaction, if any: it owns the database from begin to commit. */
  private transaction?: {
    owner: DatabaseConnection;
    done: Promise<void>;
    end: () => void;
    generation?: number;
  };
  /** What waits for the open transaction to end, in arrival order. */
  private waiting: Waiting[] = [];
  /** Priority transactions begun in a row ahead of one that waited longer. */
  private priorityTurns = 0;
  /** The last bulk statement sent: the next one waits for it (bulk-work.ts). */
  private lastBulk: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly pglite: PGliteLike) {}

  /** Queries sent to PGlite and not answered yet. */
  get running(): number {
    return this.inFlight.size;
  }

  /** Queries and transactions waiting for another connection's transaction to end. */
  get queued(): number {
    return this.waiting.length;
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  // Every caller gets a connection at once and its queries go straight to PGlite, which runs
  // them one after another in the order sent: no caller waits for another's round trip.
  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this);
  }

  async releaseConnection(): Promise<void> {}

  /**
   * Sends a query: bulk work's one at a time (every other query may go ahead of the next),
   * and any query now, or once another connection's open transaction has ended.
   */
  execute<R>(connection: DatabaseConnection, compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (!isBulkWork() || this.transaction?.owner === connection)
      return this.whenFree(connection, compiled);
    const result = this.lastBulk.then(() => this.whenFree<R>(connection, compiled));
    this.lastBulk = result.catch(() => undefined);
    return result;
  }

  /** Sends a query now, or once another connection's open transaction has ended. */
  private whenFree<R>(
    connection: DatabaseConnection,
    compiled: CompiledQuery,
  ): Promise<QueryResult<R>> {
    if (!this.transaction || this.transaction.owner === connection)
      return this.run<R>(connection, compiled);
    return new Promise((resolve, reject) =>
      this.waiting.push({
        kind: 'query',
        send: () => this.run<R>(connection, compiled).then(resolve, reject),
      }),
    );
  }

  /** True when `connection`'s transaction began in a database instance that has since ended. */
  private lostTransaction(connection: DatabaseConnection): boolean {
    return (
      this.transaction?.owner === connection &&
      this.transaction.generation !== this.pglite.generation
    );
  }

  // Sends the query to PGlite before its first await: whoever calls it fixes the order.
  private async run<R>(
    connection: DatabaseConnection,
    compiled: CompiledQuery,
  ): Promise<QueryResult<R>> {
    // Checked as the query is sent: sent to a restarted database, it would run on its own,
    // outside the transaction, and commit by itself.
    if (this.lostTransaction(connection)) throw transactionLost();
    const query = this.pglite.query<R>(compiled.sql, [...compiled.parameters]);
    this.inFlight.add(query);
    try {
      const result = await query;
      return {
        rows: result.rows,
        numAffectedRows:
          result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
      };
    } finally {
      this.inFlight.delete(query);
    }
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // Taken before `begin` is sent: queries sent later by others queue behind the commit.
    if (!this.transaction) this.transaction = this.opened(connection);
    else
      await new Promise<void>((start) =>
        this.waiting.push({ kind: 'transaction', connection, start, priority: isPriorityWork() }),
      );
    try {
      await connection.executeQuery(CompiledQuery.raw('begin'));
    } catch (error) {
      this.endTransaction();
      throw error;
    }
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.finish(connection, 'commit');
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.finish(connection, 'rollback');
  }

  private async finish(connection: DatabaseConnection, statement: 'commit' | 'rollback') {
    try {
      // A lost transaction has nothing left to roll back, and the error that lost it is the
      // one its caller should see; a commit of it fails.
      if (statement === 'rollback' && this.lostTransaction(connection)) return;
      await connection.executeQuery(CompiledQuery.raw(statement));
    } finally {
      if (this.transaction?.owner === connection) this.endTransaction();
    }
  }

  private opened(owner: DatabaseConnection) {
    let end!: () => void;
    const done = new Promise<void>((resolve) => (end = resolve));
    return { owner, done, end, generation: this.pglite.generation };
  }

  /**
   * Ends the open transaction and lets the waiting in, fairly: every query that waited is
   * sent first, in order, then the next waiting transaction begins (nextTransaction). A
   * request with one query (a ping) thus waits for one transaction at most, however many are
   * queued; a transaction waits at most for the queries that were waiting when the one before
   * it ended.
   */
  private endTransaction() {
    this.transaction?.end();
    this.transaction = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    for (const entry of waiting) if (entry.kind === 'query') entry.send();
    const transactions = waiting.filter((entry) => entry.kind === 'transaction');
    const next = this.nextTransaction(transactions);
    this.waiting = transactions.filter((entry) => entry !== next);
    if (next) {
      // Owned from now: whatever is sent before its `begin` arrives waits behind it.
      this.transaction = this.opened(next.connection);
      next.start();
    }
  }

  /**
   * The first waiting transaction of the priority lane, if any, unless that many have begun in
   * a row ahead of older ones already; else the one that waited longest.
   */
  private nextTransaction(transactions: WaitingTransaction[]): WaitingTransaction | undefined {
    const oldest = transactions[0];
    const urgent = transactions.find((entry) => entry.priority);
    if (urgent && urgent !== oldest && this.priorityTurns < PRIORITY_TURNS_IN_A_ROW) {
      this.priorityTurns++;
      return urgent;
    }
    this.priorityTurns = 0;
    return oldest;
  }

  async destroy(): Promise<void> {
    while (this.transaction) await this.transaction.done;
    await Promise.allSettled([...this.inFlight]);
    if (!this.pglite.closed) await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly driver: PGliteDriver) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, compiled);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database');
  }
}
