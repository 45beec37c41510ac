import { Readable } from 'node:stream';
import { constants as zlibConstants, crc32, createGunzip, deflateRawSync } from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';

/** Every file entry of a zip, by name. */
export async function unzip(archive: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        files.set(entry.fileName, await collect(stream));
        zip.readEntry();
      });
    });
    zip.readEntry();
  });
  return files;
}

/** Every file entry of a tar (gzipped when `gzipped`), by name. */
export async function untar(archive: Buffer, gzipped: boolean): Promise<Map<string, Buffer>> {
  const extract = tar.extract();
  const source = Readable.from([archive]);
  (gzipped ? source.pipe(createGunzip()) : source).pipe(
    extract as unknown as NodeJS.WritableStream,
  );
  const files = new Map<string, Buffer>();
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (entry.header.type === 'file') files.set(entry.header.name, Buffer.concat(chunks));
  }
  return files;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** One entry of a hand-made zip: its name exactly as written, and its data. */
export interface CraftedEntry {
  name: string;
  /** Stored (method 0) content, or deflated chunks (method 8) with the original's crc and size. */
  data: Buffer | { deflated: Buffer[]; crc32: number; size: number };
  /** A size to claim in the headers instead of the true one (a lying archive). */
  claimedSize?: number;
}

/**
 * Writes a zip byte by byte, so that tests can make what no zip library would: names with
 * '..', backslashes, NUL or drive letters, headers that lie, and bombs whose deflated data
 * is assembled from repeated blocks instead of compressing gigabytes.
 */
export function craftZip(entries: CraftedEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const stored = Buffer.isBuffer(entry.data);
    const body = Buffer.isBuffer(entry.data) ? [entry.data] : entry.data.deflated;
    const compressedSize = body.reduce((sum, chunk) => sum + chunk.length, 0);
    const crc = Buffer.isBuffer(entry.data) ? crc32(entry.data) : entry.data.crc32;
    const size =
      entry.claimedSize ?? (Buffer.isBuffer(entry.data) ? entry.data.length : entry.data.size);
    const fields = { method: stored ? 0 : 8, crc, compressedSize, size, nameLength: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeCommon(local, 4, fields);
    parts.push(local, name, ...body);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // version made by
    writeCommon(header, 6, fields);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + compressedSize;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** The fields local and central headers share, from "version needed" to "extra length". */
function writeCommon(
  buffer: Buffer,
  at: number,
  f: { method: number; crc: number; compressedSize: number; size: number; nameLength: number },
) {
  buffer.writeUInt16LE(20, at); // version needed
  buffer.writeUInt16LE(0x0800, at + 2); // names are UTF-8
  buffer.writeUInt16LE(f.method, at + 4);
  buffer.writeUInt16LE(0, at + 6); // time
  buffer.writeUInt16LE(0x21, at + 8); // date: 1980-01-01
  buffer.writeUInt32LE(f.crc, at + 10);
  buffer.writeUInt32LE(f.compressedSize, at + 14);
  buffer.writeUInt32LE(f.size, at + 18);
  buffer.writeUInt16LE(f.nameLength, at + 22);
}

/**
 * Deflated data of `mib` MiB of zeros without compressing them all: one MiB deflated with a
 * full flush is byte-aligned and refers to nothing before it, so it can be repeated, then a
 * final empty block ends the stream. The CRC is computed over the zeros chunk by chunk.
 */
export function zerosDeflated(mib: number): { deflated: Buffer[]; crc32: number; size: number } {
  const zeros = Buffer.alloc(1024 * 1024);
  const block = deflateRawSync(zeros, { finishFlush: zlibConstants.Z_FULL_FLUSH });
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(zeros, crc);
  return {
    deflated: [...Array.from({ length: mib }, () => block), deflateRawSync(Buffer.alloc(0))],
    crc32: crc,
    size: mib * zeros.length,
  };
}
