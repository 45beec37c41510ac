import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { BATCH_BYTES, createUploadWriter } from './upload-writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'depot-upload-writer-'));
const writer = createUploadWriter();
afterAll(async () => {
  await writer.close();
  rmSync(dir, { recursive: true, force: true });
});

const digestsOf = (bytes: Buffer) => ({
  size: bytes.length,
  sha256: createHash('sha256').update(bytes).digest('hex'),
  sha1: createHash('sha1').update(bytes).digest('hex'),
});

/** A body arriving in uneven chunks, as a socket delivers one. */
const body = (bytes: Buffer, chunk = 21_000) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) =>
      bytes.subarray(i * chunk, (i + 1) * chunk),
    ),
  );

function newUpload(name: string) {
  const path = join(dir, name);
  writeFileSync(path, '');
  return path;
}

describe('the upload thread', () => {
  it('writes and hashes appends of several batches exactly, across appends', async () => {
    const path = newUpload('a');
    const first = randomBytes(BATCH_BYTES * 2 + 12_345);
    const second = randomBytes(BATCH_BYTES + 1);
    expect(await writer.append('a', path, 0, body(first), () => undefined)).toEqual({
      hashed: true,
    });
    await writer.append('a', path, first.length, body(second, 65_536), () => undefined);
    const whole = Buffer.concat([first, second]);
    expect(readFileSync(path).equals(whole)).toBe(true);
    expect(await writer.digests('a', whole.length)).toEqual(digestsOf(whole));
    // Asked once: the end takes them.
    expect(await writer.digests('a', whole.length)).toBeUndefined();
  });

  it('keeps no hashes once the file is not what they covered', async () => {
    const path = newUpload('b');
    const bytes = randomBytes(100_000);
    await writer.append('b', path, 0, body(bytes), () => undefined);
    truncateSync(path, 50_000); // a chunk cut off, another node's write: the file changed
    const more = await writer.append('b', path, 50_000, body(bytes), () => undefined);
    expect(more).toEqual({ hashed: false });
    expect(await writer.digests('b', 150_000)).toBeUndefined();
    expect(readFileSync(path).length).toBe(150_000);
  });

  it('writes nothing of a refused chunk, and keeps what arrived before a body broke off', async () => {
    const path = newUpload('c');
    const bytes = randomBytes(BATCH_BYTES + 500_000);
    let seen = 0;
    const refused = new Error('too large');
    await expect(
      writer.append('c', path, 0, body(bytes), (chunk) => {
        seen += chunk.length;
        if (seen > BATCH_BYTES + 100_000) throw refused;
      }),
    ).rejects.toBe(refused);
    // The batch in hand is dropped, the full one before it written (the caller cuts it off).
    expect(readFileSync(path).length).toBe(BATCH_BYTES);

    const brokenPath = newUpload('d');
    const broken = new Readable({ read() {} });
    broken.push(bytes.subarray(0, 70_000));
    setTimeout(() => broken.destroy(new Error('connection reset')), 20);
    await expect(writer.append('d', brokenPath, 0, broken, () => undefined)).rejects.toThrow(
      'connection reset',
    );
    expect(readFileSync(brokenPath).equals(bytes.subarray(0, 70_000))).toBe(true);
    expect(await writer.digests('d', 70_000)).toEqual(digestsOf(bytes.subarray(0, 70_000)));
  });
});
