import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetsFor } from '../src/custom/set-me-up/snippets.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { TEST_ADMIN_PASSWORD } from './helpers/test-app.ts';

/**
 * Set Me Up's generic snippets run as a user pastes them into a shell: real curl deploys a
 * file and downloads it back. (npm's .npmrc and Maven's settings.xml are run by their own
 * clients in e2e/packages.e2e.ts and tests/maven-cli.test.ts.)
 */
const run = promisify(execFile);
let depot: HttpDepot;
let work: string;

beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.repositories.create({
    key: 'files',
    rclass: 'local',
    packageType: 'generic',
  } as never);
  work = mkdtempSync(join(tmpdir(), 'depot-setmeup-'));
});
afterAll(async () => {
  await depot?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("Set Me Up's generic snippets with curl", () => {
  it('deploy a file and download it back', async () => {
    const { deploy, read } = snippetsFor(
      'generic',
      { baseUrl: `${depot.base}/artifactory`, repoKey: 'files' },
      { userName: 'admin', secret: TEST_ADMIN_PASSWORD },
    );
    writeFileSync(join(work, 'report.txt'), 'the quarterly report');
    const fill = (command: string) =>
      command
        .replace('<PATH_TO_FILE>', 'report.txt')
        .replace('<TARGET_FILE_PATH>', 'reports/2026/report.txt');
    await run('sh', ['-c', `${fill(deploy[0]!.text)} --fail --silent --show-error`], { cwd: work });
    rmSync(join(work, 'report.txt'));
    await run('sh', ['-c', `${fill(read[0]!.text)} --fail --silent --show-error`], { cwd: work });
    expect(readFileSync(join(work, 'report.txt'), 'utf8')).toBe('the quarterly report');
    const stored = await depot.request('/artifactory/api/storage/files/reports/2026/report.txt');
    expect(stored.status).toBe(200);
  });
});
