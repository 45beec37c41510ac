import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

/**
 * A filestore on a disk that fills up: an 8 MiB tmpfs holds only the filestore
 * (DEPOT_FILESTORE_DIR); the database stays on the ordinary disk. Mounting needs root, which
 * CI has; without it this test fails and says so.
 */
const DISK_SIZE = 8 * 1024 * 1024;
const disk = mkdtempSync(join(tmpdir(), 'remotehelper-disk-'));
let mounted = false;
let depot: HttpDepot | undefined;

/** Lazy, so that it never fails as busy; idempotent, so that the exit net may call it too. */
function unmount() {
  if (!mounted) return;
  mounted = false;
  execFileSync('umount', ['-l', disk]);
  rmSync(disk, { recursive: true, force: true });
}

beforeAll(async () => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_SIZE}`, 'tmpfs', disk], {
      stdio: 'pipe',
    });
  } catch (error) {
    rmSync(disk, { recursive: true, force: true });
    throw new Error(
      `The full-disk test needs root to mount a small tmpfs (mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}). Run it as root, as CI does.`,
    );
  }
  mounted = true;
  // A safety net: the disk goes even if a hook is cut short by its timeout.
  process.once('exit', unmount);
  depot = await startHttpDepot({ DEPOT_FILESTORE_DIR: disk });
});

afterAll(async () => {
  try {
    await depot?.close();
  } finally {
    unmount();
  }
});

const put = (path: string, body: BodyInit) =>
  depot!.request(`/artifactory/${path}`, { method: 'PUT', body });

/** Every file in the filestore but the temp folder, and the temp folder's files. */
function filestoreContent() {
  const blobs = readdirSync(disk, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('_tmp'))
    .map((entry) => entry.name);
  return { blobs, temp: readdirSync(join(disk, '_tmp')) };
}

describe('a full filestore disk', () => {
  it('refuses a deploy that does not fit with 507, keeps nothing, and goes on serving', async () => {
    await depot!.request('/artifactory/api/repositories/libs', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    });
    expect((await put('libs/small/before.txt', 'deployed before the disk filled')).status).toBe(
      201,
    );
    const before = filestoreContent();
    expect(before.blobs).toHaveLength(1);

    const tooBig = new Uint8Array(DISK_SIZE + 4 * 1024 * 1024).fill(120);
    const refused = await put('libs/big/too-big.bin', tooBig);
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual({
      errors: [{ status: 507, message: 'Not enough disk space to store the artifact' }],
    });

    // No artifact, no row, no blob, no temp file.
    expect((await depot!.request('/artifactory/libs/big/too-big.bin')).status).toBe(404);
    expect((await depot!.request('/artifactory/api/storage/libs/big')).status).toBe(404);
    const blobRows = await depot!.db.selectFrom('blobs').select('sha256').execute();
    expect(blobRows).toHaveLength(1);
    expect(filestoreContent()).toEqual(before);

    const earlier = await depot!.request('/artifactory/libs/small/before.txt');
    expect(earlier.status).toBe(200);
    expect(await earlier.text()).toBe('deployed before the disk filled');
    expect((await put('libs/small/after.txt', 'a small deploy still fits')).status).toBe(201);
    expect(await (await depot!.request('/artifactory/libs/small/after.txt')).text()).toBe(
      'a small deploy still fits',
    );
  });
});
