import { asBulkWork } from '../../db/bulk-work.ts';
import type { Database } from '../../db/database.ts';
import type { AccessDecider } from '../access-control/decider.ts';
import type { ItemQuery } from './criteria.ts';
import { itemBatch, type ItemRow } from './queries.ts';

/** What permission filtering needs of a row: where it is and what kind. */
export interface Locatable {
  repo: string;
  path: string;
  folder: boolean;
}

/** Reads `limit` rows of a search from `offset`, in the repositories given (all if undefined). */
export type BatchReader<Row> = (
  repoKeys: readonly string[] | undefined,
  offset: number,
  limit: number,
) => Promise<Row[]>;

/** Rows read per round trip once the first, right-sized batch was not enough. */
const BATCH = 1000;

export interface PageRequest {
  /** Lower-cased keys of the repositories to look in; undefined for all. */
  repoKeys?: readonly string[];
  /** Where in the query's rows (before permission filtering) to resume: a continue state. */
  resumeAt?: number;
  /** Readable rows to pass over first (AQL's offset). */
  skip?: number;
  /** Readable rows wanted; undefined for all of them. */
  limit?: number;
}

export interface Page<Row = ItemRow> {
  items: Row[];
  /** Where the next page resumes, when more readable rows exist; undefined at the end. */
  resumeAt?: number;
}

/**
 * Runs item queries for one caller. Permission filtering happens before the limit: rows the
 * caller may not read are dropped batch by batch and more are read until the page is full,
 * so nobody gets fewer rows than asked while more exist. The database narrows first to the
 * repositories where the caller can read anything at all.
 */
export function createSearchEngine(db: Database) {
  /** The repositories to look in: the asked ones the caller may read something in. */
  function narrowed(access: AccessDecider, repoKeys: readonly string[] | undefined) {
    const readable = access.readableRepoKeys();
    if (readable === 'all') return repoKeys;
    const readableKeys = [...readable].map((key) => key.toLowerCase());
    return repoKeys === undefined
      ? readableKeys
      : repoKeys.filter((key) => readableKeys.includes(key));
  }

  /**
   * The caller's readable rows in order, each with its position among all rows, read lazily:
   * a consumer that stops early (a page is full) stops the reading too.
   */
  async function* readableRows<Row extends Locatable>(
    read: BatchReader<Row>,
    access: AccessDecider,
    request: PageRequest,
  ) {
    const repoKeys = narrowed(access, request.repoKeys);
    if (repoKeys?.length === 0) return;
    let offset = request.resumeAt ?? 0;
    // The first batch is what the page needs when every row is readable; later ones are full.
    let size =
      request.limit === undefined
        ? BATCH
        : Math.min(BATCH, request.limit + 1 + (request.skip ?? 0));
    for (let first = true; ; first = false) {
      // The first batch is one statement, as any request's: it is sent at once. Later ones
      // are bulk work, so that on the embedded database other requests' statements go
      // between a long stream's batches. (Sent as bulk work too, the first batch of each of
      // many concurrent searches waited for all the others', each behind the whole queue.)
      const batch = () => read(repoKeys, offset, size);
      const rows = await (first ? batch() : asBulkWork(batch));
      for (const [index, row] of rows.entries()) {
        const kind = row.folder ? 'folder' : 'file';
        if (access.can('read', row.repo, row.path, kind)) yield { row, position: offset + index };
      }
      if (rows.length < size) return;
      offset += rows.length;
      size = BATCH;
    }
  }

  const itemsOf =
    (query: ItemQuery): BatchReader<ItemRow> =>
    (repoKeys, offset, limit) =>
      itemBatch(db, { query, repoKeys, offset, limit });

  /**
   * Readable rows after the first `skip` of them, with their positions; administrators'
   * skip goes to the database instead of being counted.
   */
  async function* afterSkip<Row extends Locatable>(
    read: BatchReader<Row>,
    access: AccessDecider,
    request: PageRequest,
  ) {
    const skipInSql = access.admin ? (request.skip ?? 0) : 0;
    let toSkip = (request.skip ?? 0) - skipInSql;
    const resumeAt = (request.resumeAt ?? 0) + skipInSql;
    for await (const found of readableRows(read, access, { ...request, resumeAt, skip: toSkip })) {
      if (toSkip > 0) toSkip--;
      else yield found;
    }
  }

  /** One page of readable rows of any reader and where the next one starts. */
  async function pageOf<Row extends Locatable>(
    read: BatchReader<Row>,
    access: AccessDecider,
    request: PageRequest,
  ): Promise<Page<Row>> {
    const items: Row[] = [];
    for await (const { row, position } of afterSkip(read, access, request)) {
      if (items.length === request.limit) return { items, resumeAt: position };
      items.push(row);
    }
    return { items };
  }

  return {
    pageOf,

    /** One page of readable items and where the next one starts. */
    page: (query: ItemQuery, access: AccessDecider, request: PageRequest) =>
      pageOf(itemsOf(query), access, request),

    /** Every readable row from `skip` on, up to `limit`, a batch at a time (for streaming). */
    async *stream(query: ItemQuery, access: AccessDecider, request: PageRequest) {
      let left = request.limit ?? Infinity;
      if (left === 0) return;
      for await (const { row } of afterSkip(itemsOf(query), access, request)) {
        yield row;
        if (--left === 0) return;
      }
    },
  };
}
