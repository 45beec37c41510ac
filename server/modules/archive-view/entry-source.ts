import type { Readable } from 'node:stream';
import { readArchive, type DeployArchiveType } from '../archives/archive-reader.ts';
import type { BombGuard } from '../archives/bomb-guard.ts';
import { entryName, skipEntry } from './archive-entries.ts';
import { VIEW_SOURCE_MESSAGES } from './messages.ts';

/** What an archive holds at a path: a file's first bytes, a folder, or nothing. */
export type EntryContent =
  { kind: 'file'; head: Buffer; truncated: boolean } | { kind: 'folder' } | { kind: 'missing' };

/** The first `max` bytes of a stream, and whether more followed; the rest is never read. */
export async function readHead(
  stream: Readable,
  max: number,
): Promise<{ head: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  // Leaving the loop early destroys the stream: nothing past max + 1 chunk is inflated.
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    if (total > max) break;
  }
  const all = Buffer.concat(chunks);
  return { head: all.subarray(0, max), truncated: all.length > max };
}

/**
 * The entry at `sourcePath` of an archive: its first `maxBytes`, read through the bomb guard,
 * and reading stops there. Entries before it are skipped as cheaply as the format allows.
 */
export async function readEntry(
  file: string,
  type: DeployArchiveType,
  sourcePath: string,
  { guard, maxBytes }: { guard: BombGuard; maxBytes: number },
): Promise<EntryContent> {
  const wanted = entryName(sourcePath);
  let content: EntryContent = { kind: 'missing' };
  await readArchive(
    file,
    type,
    async (entry) => {
      const path = entryName(entry.name);
      if (path !== wanted) {
        if (path.startsWith(`${wanted}/`)) content = { kind: 'folder' };
        await skipEntry(entry, guard);
        return;
      }
      if (entry.kind === 'directory') {
        content = { kind: 'folder' };
        return 'stop';
      }
      const stream = await entry.open();
      const metered = stream.pipe(guard.meter(entry.name, entry.compression, entry.recorded));
      stream.once('error', (error) => metered.destroy(error));
      content = { kind: 'file', ...(await readHead(metered, maxBytes)) };
      stream.destroy();
      return 'stop';
    },
    VIEW_SOURCE_MESSAGES.corrupt,
  );
  return content;
}
