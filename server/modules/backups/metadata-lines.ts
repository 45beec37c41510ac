import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface MetadataLine {
  table: string;
  /** The row's JSON text exactly as written (never re-serialized: numbers stay exact). */
  rowText: string;
  /**
   * Where the row stood in its table (its `ctid` as block × 65536 + offset), written since
   * format 3: a later delta names the rows it replaces or removes by it (docs/backup.md).
   */
  at?: number;
}

const LINE_START = /^\{"table":"([a-z_]+)",(?:"at":(\d+),)?"row":/;

/**
 * The lines of a backup's metadata.jsonl, one at a time (memory stays flat); with `end`, only
 * those before that byte (a file still being written, whose first part is whole).
 */
export async function* metadataLines(
  file: string,
  { end }: { end?: number } = {},
): AsyncGenerator<MetadataLine> {
  // createReadStream's `end` is inclusive; an empty range must read nothing.
  if (end === 0) return;
  const input = createReadStream(file, {
    encoding: 'utf8',
    ...(end !== undefined && { end: end - 1 }),
  });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (!line) continue;
      const match = LINE_START.exec(line);
      if (!match || !line.endsWith('}')) throw new Error('a line of metadata.jsonl is damaged');
      const rowText = line.slice(match[0].length, -1);
      yield match[2] === undefined
        ? { table: match[1], rowText }
        : { table: match[1], rowText, at: Number(match[2]) };
    }
  } finally {
    // A reader that stops early (the blob rows of a file just written) closes the file too.
    input.destroy();
  }
}

export interface BlobRow {
  sha256: string;
  size: number;
}

/**
 * The blobs a backup's metadata names. `written` says the file is one this process just
 * wrote, table by table: its blob rows are one run, and the reading stops after them (the
 * items' rows that follow are most of the file). `end` reads only the file's first bytes, those
 * a dump still writing had written when its blob rows were in. A backup read for a restore is
 * read whole.
 */
export async function* blobRows(
  file: string,
  { written = false, end }: { written?: boolean; end?: number } = {},
): AsyncGenerator<BlobRow> {
  let inBlobs = false;
  for await (const { table, rowText } of metadataLines(file, { end })) {
    if (table !== 'blobs') {
      if (inBlobs && written) return;
      continue;
    }
    inBlobs = true;
    const row = JSON.parse(rowText) as { sha256: string; size: number };
    if (!/^[0-9a-f]{64}$/.test(row.sha256)) throw new Error('a blob of the backup is misnamed');
    yield { sha256: row.sha256, size: Number(row.size) };
  }
}
