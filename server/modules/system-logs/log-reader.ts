import { readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFound } from '../../errors.ts';
import { SERVICE_LOG_FILE } from '../../logger.ts';
import { AUDIT_LOG_FILE } from '../../logs/audit-log.ts';
import { REQUEST_LOG_FILE } from '../../logs/request-log.ts';

/** The logs Depot writes, in the order the viewer offers them. */
export const LIVE_LOGS = [SERVICE_LOG_FILE, REQUEST_LOG_FILE, AUDIT_LOG_FILE];

/**
 * The most one read returns: a viewer that fell further behind (or opens a 100 MB file)
 * gets the newest part, starting at a line, never the whole file.
 */
export const MAX_CHUNK_BYTES = 512 * 1024;

export interface LogChunk {
  /** The text from the offset asked for (or from the start of the newest part) to the end. */
  content: string;
  /** Where the next read starts: the end of the last whole line returned. */
  end: number;
  modifiedMs: number;
}

const ROTATED = new RegExp(
  `^(${LIVE_LOGS.map((name) => name.replace('.', '\\.')).join('|')})\\.(\\d+)$`,
);

/** The live logs, then every rotated file of them in the directory, newest first. */
export function listLogFiles(logDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(logDir);
  } catch {
    names = [];
  }
  const rotated = names
    .map((name) => ROTATED.exec(name))
    .filter((match) => match !== null)
    .sort(
      (a, b) => LIVE_LOGS.indexOf(a[1]) - LIVE_LOGS.indexOf(b[1]) || Number(a[2]) - Number(b[2]),
    )
    .map((match) => match[0]);
  return [...LIVE_LOGS, ...rotated];
}

/**
 * Reads a log from `offset` to its end: at most MAX_CHUNK_BYTES, ending at the last whole
 * line (a line still being written comes with the next read). An offset past the end means
 * the file was rotated since: the new file is read as a first read is. The file is named
 * only by an id `listLogFiles` gives, so no path leaves the logs directory.
 */
export async function readLogChunk(logDir: string, id: string, offset: number): Promise<LogChunk> {
  if (!listLogFiles(logDir).includes(id)) throw new NotFound(`Log file '${id}' not found`);
  const handle = await open(join(logDir, id), 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return { content: '', end: 0, modifiedMs: 0 };
  try {
    const { size, mtimeMs } = await handle.stat();
    const from = offset > size ? 0 : offset;
    const start = Math.max(from, size - MAX_CHUNK_BYTES);
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    const bytes = buffer.subarray(0, bytesRead);
    // Skipping ahead lands mid-line: begin at the next whole one.
    const first = start > from ? bytes.indexOf(0x0a) + 1 : 0;
    const last = bytes.lastIndexOf(0x0a) + 1;
    if (last <= first) return { content: '', end: start + first, modifiedMs: mtimeMs };
    return {
      content: bytes.subarray(first, last).toString('utf8'),
      end: start + last,
      modifiedMs: mtimeMs,
    };
  } finally {
    await handle.close();
  }
}
