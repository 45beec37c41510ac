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
  constructor(private readonly pglite: PGliteLike) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
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

class PGliteDriver implements Driver {
  /** The open transaction, if any: it owns the database from begin to commit. */
  private transaction?: {
    owner: DatabaseConnection;
    done: Promise<void>;
    end: () => void;
    generation?: number;
  };
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly pglite: PGliteLike) {}

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  // Every caller gets a connection at once and its queries go straight to PGlite, which runs
  // them one after another in the order sent: no caller waits for another's round trip.
  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this);
  }

  async releaseConnection(): Promise<void> {}

  /** Waits while another connection's transaction is open. */
  async turn(connection: DatabaseConnection): Promise<void> {
    while (this.transaction && this.transaction.owner !== connection) {
      await this.transaction.done;
    }
  }

  /** True when `connection`'s transaction began in a database instance that has since ended. */
  lostTransaction(connection: DatabaseConnection): boolean {
    return (
      this.transaction?.owner === connection &&
      this.transaction.generation !== this.pglite.generation
    );
  }

  async run<R>(connection: DatabaseConnection, compiled: CompiledQuery): Promise<QueryResult<R>> {
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
    while (this.transaction) await this.transaction.done;
    let end!: () => void;
    const done = new Promise<void>((resolve) => (end = resolve));
    // Taken before `begin` is sent: queries sent later by others queue behind the commit.
    this.transaction = { owner: connection, done, end, generation: this.pglite.generation };
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

  private endTransaction() {
    this.transaction?.end();
    this.transaction = undefined;
  }

  async destroy(): Promise<void> {
    while (this.transaction) await this.transaction.done;
    await Promise.allSettled([...this.inFlight]);
    if (!this.pglite.closed) await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly driver: PGliteDriver) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    await this.driver.turn(this);
    return this.driver.run<R>(this, compiled);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database');
  }
}
