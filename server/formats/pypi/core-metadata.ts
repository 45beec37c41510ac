import { readArchive, type DeployArchiveType } from '../../modules/archives/archive-reader.ts';
import { readHead } from '../../modules/archive-view/entry-source.ts';
import type { Distribution } from './names.ts';

/** Metadata larger than this is cut: a description of a megabyte is already generous. */
const MAX_METADATA_BYTES = 1024 * 1024;
/** An sdist's PKG-INFO sits near its start; past these, the file is not looked in further. */
const MAX_ENTRIES_LOOKED_AT = 1000;
const MAX_BYTES_SKIPPED = 256 * 1024 * 1024;

/**
 * A distribution's core metadata (PEP 241/314/345/566): header fields keyed as twine's
 * upload form names them (`Requires-Python` → `requires_python`), repeated ones as lists,
 * and the long description from the body.
 */
export interface CoreMetadata {
  fields: Record<string, string | string[]>;
  description?: string;
}

/** Where the metadata file sits: a wheel's `*.dist-info/METADATA`, an sdist's `*\/PKG-INFO`. */
function metadataEntry(kind: Distribution['kind']): RegExp {
  return kind === 'wheel' ? /^[^/]+\.dist-info\/METADATA$/ : /^[^/]+\/PKG-INFO$/;
}

function archiveTypeOf(filename: string): DeployArchiveType | undefined {
  const name = filename.toLowerCase();
  if (name.endsWith('.whl') || name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tgz';
  return undefined; // .tar.bz2 and .tar.xz are not read: indexed from the file name alone
}

/**
 * Reads the core metadata inside a distribution on disk, or undefined when it has none
 * that can be read (an unreadable archive is not an error here: the file name still says
 * the project and version). Reading stops at the metadata entry, and is bounded.
 */
export async function readCoreMetadata(
  diskPath: string,
  filename: string,
  kind: Distribution['kind'],
): Promise<CoreMetadata | undefined> {
  const type = archiveTypeOf(filename);
  if (!type) return undefined;
  const wanted = metadataEntry(kind);
  let text: string | undefined;
  let looked = 0;
  let skipped = 0;
  try {
    await readArchive(diskPath, type, async (entry) => {
      if (entry.kind === 'file' && wanted.test(entry.name)) {
        const { head } = await readHead(await entry.open(), MAX_METADATA_BYTES);
        text = head.toString('utf8');
        return 'stop';
      }
      skipped += entry.size;
      looked += 1;
      return looked >= MAX_ENTRIES_LOOKED_AT || skipped >= MAX_BYTES_SKIPPED ? 'stop' : undefined;
    });
  } catch {
    return undefined;
  }
  return text === undefined ? undefined : parseCoreMetadata(text);
}

/** RFC 822-style headers, continuation lines folded in, then the body as the description. */
export function parseCoreMetadata(text: string): CoreMetadata {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const fields: Record<string, string | string[]> = {};
  let index = 0;
  let last: string | undefined;
  for (; index < lines.length; index++) {
    const line = lines[index]!;
    if (line === '') break;
    if (/^[ \t]/.test(line) && last) {
      const value = fields[last]!;
      const folded = `\n${line.replace(/^ {8}|^\t/, '')}`;
      if (Array.isArray(value)) value[value.length - 1] += folded;
      else fields[last] = value + folded;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase().replace(/-/g, '_');
    const value = line.slice(colon + 1).trim();
    const known = fields[key];
    fields[key] = known === undefined ? value : [...[known].flat(), value];
    last = key;
  }
  const body = lines
    .slice(index + 1)
    .join('\n')
    .trim();
  const fromHeader = fields.description;
  delete fields.description;
  const description = body || (typeof fromHeader === 'string' ? fromHeader : undefined);
  return { fields, ...(description ? { description } : {}) };
}
