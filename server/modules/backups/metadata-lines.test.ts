import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobRows } from './metadata-lines.ts';

const root = mkdtempSync(join(tmpdir(), 'depot-metadata-lines-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const line = (table: string, row: object) =>
  `{"table":"${table}","at":1,"row":${JSON.stringify(row)}}\n`;
const sha = (char: string) => char.repeat(64);

async function listed(file: string, options: { written?: boolean; end?: number }) {
  const rows = [];
  for await (const row of blobRows(file, options)) rows.push(row);
  return rows;
}

describe('the blob rows of a metadata dump still being written', () => {
  it('reads only the bytes before `end`, whatever the dump has appended since', async () => {
    const file = join(root, 'metadata.jsonl');
    const head = line('users', { id: 1 }) + line('blobs', { sha256: sha('a'), size: 3 });
    const blobs = head + line('blobs', { sha256: sha('b'), size: 5 });
    writeFileSync(file, blobs);
    // The tables after `blobs` as a dump goes on writing them: a line cut off at the end.
    appendFileSync(file, line('nodes', { id: 1 }) + '{"table":"nodes","at":2,"row":{"i');
    const end = Buffer.byteLength(blobs);
    expect(await listed(file, { written: true, end })).toEqual([
      { sha256: sha('a'), size: 3 },
      { sha256: sha('b'), size: 5 },
    ]);
    // Without the bound the cut line is read, and refused.
    await expect(listed(file, {})).rejects.toThrow('damaged');
    expect(await listed(file, { end: Buffer.byteLength(head) })).toHaveLength(1);
    expect(await listed(file, { end: 0 })).toEqual([]);
  });
});
