import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../server/modules/backups/backup-manifest.ts';
import { adminAuth, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * Restores of backups written by hand, as an attacker who can drop a directory into a backup
 * directory would write them: a manifest whose binaries lie outside the backup, and metadata
 * naming a table no backup holds. Each is a 400 that restores nothing.
 */
const allowed = mkdtempSync(join(tmpdir(), 'depot-crafted-backups-'));
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_BACKUP_DIRS: allowed });
});
afterAll(async () => {
  await depot?.close();
  rmSync(allowed, { recursive: true, force: true });
});

/** A backup directory with a manifest Depot would read but for `layout`, and `metadata`. */
function craftedBackup(name: string, layout: object, metadata = '') {
  const dir = join(allowed, name);
  mkdirSync(dir, { recursive: true });
  writeBackupFiles(dir, layout, metadata);
  return dir;
}

/** Writes the manifest and metadata of a crafted backup into `dir`. */
function writeBackupFiles(dir: string, layout: object, metadata: string) {
  const manifest = {
    format: 'depot-backup',
    formatVersion: 2,
    schema: schemaVersion(),
    snapshotAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    incremental: false,
    counts: {},
    warnings: [],
    ...layout,
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'metadata.jsonl'), metadata);
}

const restore = (importPath: string) =>
  depot.app.inject({
    method: 'POST',
    url: '/artifactory/api/import/system',
    headers: adminAuth(),
    payload: { importPath },
  });

describe('a crafted backup', () => {
  it('is refused when its manifest names binaries outside it', async () => {
    const layouts = [
      { packsDir: '../../../../etc', packs: ['passwd'] },
      { packsDir: '/etc', packs: ['passwd'] },
      { packsDir: 'packs', packs: ['../../../../etc/passwd'] },
      { packsDir: 'packs', packs: ['/etc/passwd'] },
      { packsDir: 'packs', packs: 'passwd' },
      { formatVersion: 1, blobsDir: '../../..' },
      { formatVersion: 1, blobsDir: '/' },
    ];
    for (const [n, layout] of layouts.entries()) {
      const response = await restore(craftedBackup(`layout-${n}`, layout));
      expect(response.statusCode, JSON.stringify(layout)).toBe(400);
      expect(response.json().errors[0].message).toContain('names binaries outside the backup');
    }
  });

  it('is refused when its metadata names a table no backup holds, restoring nothing', async () => {
    const sessionsBefore = await depot.db.selectFrom('sessions').selectAll().execute();
    const forged = JSON.stringify({ id: 'forged-session', user_name: 'admin' });
    const dir = craftedBackup(
      'forged-session',
      { packsDir: 'packs', packs: [] },
      `{"table":"sessions","row":${forged}}\n`,
    );
    const response = await restore(dir);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[0].message).toBe(
      "Nothing was restored: the backup's metadata names the table 'sessions', which no Depot backup holds",
    );
    expect(await depot.db.selectFrom('sessions').selectAll().execute()).toEqual(sessionsBefore);
    // The accounts are untouched: the admin still signs in.
    const current = await depot.app.inject({
      url: '/ui/api/v1/ui/auth/current',
      headers: adminAuth(),
    });
    expect(current.json()).toMatchObject({ name: 'admin', admin: true });
  });

  it('is refused when it sits in an allowed directory itself and reads the packs above it', async () => {
    try {
      writeBackupFiles(allowed, { incremental: true, packsDir: '../packs', packs: [] }, '');
      const response = await restore(allowed);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors[0].message).toContain('names binaries outside the backup');
    } finally {
      rmSync(join(allowed, 'manifest.json'), { force: true });
      rmSync(join(allowed, 'metadata.jsonl'), { force: true });
    }
  });

  // Last: the empty backup replaces this Depot's accounts with none.
  it('still restores the layouts Depot writes (an empty backup)', async () => {
    const response = await restore(craftedBackup('empty', { packsDir: '../packs', packs: [] }));
    expect(response.statusCode, response.body).toBe(200);
  });
});
