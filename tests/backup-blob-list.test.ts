import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobList } from '../server/modules/backups/blob-list.ts';
import { dumpMetadata } from '../server/modules/backups/metadata-dump.ts';
import { blobRows, type BlobRow } from '../server/modules/backups/metadata-lines.ts';
import { createRepository, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * A full backup's pack starts with the dump's first blob rows (docs/backup.md, "Runs"): the
 * dump hands each page of them to a BlobList the pack reads. Runs on the embedded database
 * and, with DEPOT_TEST_DATABASE_URL, on PostgreSQL.
 */
const work = mkdtempSync(join(tmpdir(), 'depot-blob-list-'));
let depot: TestDepot;
let repositoryId: number;
const ITEMS = 2_500;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'listed', 'local');
  const [repository] = await depot.db
    .selectFrom('repositories')
    .select('id')
    .where('key', '=', 'listed')
    .execute();
  repositoryId = repository.id;
  // Rows only: the dump reads the database, not the filestore. Inserted in an order other than
  // the SHA-256's, as a Depot's blobs arrive.
  await sql`insert into blobs (sha256, sha1, md5, size)
    select encode(sha256(i::text::bytea), 'hex'), md5(i::text) || left(md5((i + 7)::text), 8),
           md5(i::text), i
      from generate_series(1, ${ITEMS}::int) as i`.execute(depot.db);
  await sql`insert into nodes (repository_id, path, parent_path, name, folder, sha256, size,
                               created_by, modified_by)
    select ${repositoryId}, 'listed/' || i, 'listed', i::text, false,
           encode(sha256(i::text::bytea), 'hex'), i, 'test', 'test'
      from generate_series(1, ${ITEMS}::int) as i`.execute(depot.db);
  // An orphan blob, waiting for garbage collection: no item uses it, no backup takes it.
  await sql`insert into blobs (sha256, sha1, md5, size)
    values (repeat('0', 64), repeat('0', 40), repeat('0', 32), 1)`.execute(depot.db);
}, 120_000);

afterAll(async () => {
  await depot?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("a full dump's blob rows, handed to the pack as they are read", () => {
  it('reaches the pack before the dump has read them all, each row once, in order', async () => {
    const file = join(work, 'metadata.jsonl');
    const list = new BlobList(join(work, '.blob-list'));
    const events: string[] = [];
    const listed: BlobRow[] = [];
    let rowsListedAtFirst = 0;
    const reading = (async () => {
      for await (const row of list.rows()) {
        if (listed.length === 0) {
          events.push('the pack has its first blob');
          rowsListedAtFirst = list.added;
        }
        listed.push(row);
      }
    })();
    const dumped = await depot.db.transaction().execute((tx) =>
      dumpMetadata(
        tx,
        file,
        { repositoryIds: [repositoryId], excludeBuilds: false, includeProperties: true },
        {
          idsDir: join(work, 'ids'),
          blobList: list,
          onBlobsDumped: () => events.push('the blob rows are all read'),
        },
      ),
    );
    await reading;
    list.remove();
    expect(events).toEqual(['the pack has its first blob', 'the blob rows are all read']);
    // The first page (a thousand rows a fetch), not every row: the dump was still reading.
    expect(rowsListedAtFirst).toBeGreaterThan(0);
    expect(rowsListedAtFirst).toBeLessThan(ITEMS);
    const inFile: BlobRow[] = [];
    for await (const row of blobRows(file)) inFile.push(row);
    expect(inFile).toHaveLength(ITEMS);
    expect(listed).toEqual(inFile);
    expect(dumped.blobCount).toBe(ITEMS);
    const sorted = listed.map((row) => row.sha256);
    expect(sorted).toEqual([...sorted].sort());
  });
});
