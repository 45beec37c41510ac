import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminAuth,
  basic,
  createRepository,
  deployFile,
  devWithOnlyGrant,
  startTestDepot,
} from './helpers/test-app.ts';
import type { TestDepot } from './helpers/test-app.ts';
import { treeViolations } from './helpers/tree-invariants.ts';

let depot: TestDepot;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'gen', 'local');
});
afterAll(() => depot?.close());

const put = (path: string, content: string) =>
  depot.app.inject({
    method: 'PUT',
    url: `/artifactory/gen/${path}`,
    headers: adminAuth(),
    payload: content,
  });
const get = (path: string) =>
  depot.app.inject({ method: 'GET', url: `/artifactory/gen/${path}`, headers: adminAuth() });
const transfer = (kind: 'copy' | 'move', from: string, to: string) =>
  depot.app.inject({
    method: 'POST',
    url: `/artifactory/api/${kind}/gen/${from}?to=/gen/${to}`,
    headers: adminAuth(),
  });

/** A file's content, or 'folder' when the path is a folder: what a reader sees there. */
async function seenAt(path: string): Promise<string> {
  const node = await depot.services.artifacts.findNode(
    (await depot.services.artifacts.repository('gen')).id,
    path,
  );
  if (!node) return 'absent';
  if (node.folder) return 'folder';
  return (await get(path)).body;
}

describe('a file and a folder racing for one path', () => {
  it('PUT x and PUT x/inner.txt sent together: one 201, one 409, and the 201 is what is there', async () => {
    for (let round = 0; round < 30; round++) {
      const path = `race/ff${round}`;
      const [file, child] = await Promise.all([
        put(path, `file ${round}`),
        put(`${path}/inner.txt`, `inner ${round}`),
      ]);
      expect([file.statusCode, child.statusCode].sort(), `round ${round}`).toEqual([201, 409]);
      if (file.statusCode === 201) {
        expect(await seenAt(path)).toBe(`file ${round}`);
        expect(await seenAt(`${path}/inner.txt`)).toBe('absent');
      } else {
        expect(await seenAt(path)).toBe('folder');
        expect(await seenAt(`${path}/inner.txt`)).toBe(`inner ${round}`);
      }
    }
    expect(await treeViolations(depot, 'gen')).toEqual([]);
  });

  it('copy and move racing a deploy never leave a file with something below it', async () => {
    await deployFile(depot, 'gen', 'src/one/a.txt', 'a');
    await deployFile(depot, 'gen', 'src/two.txt', 'two');
    for (let round = 0; round < 15; round++) {
      const answers = await Promise.all([
        put(`copied${round}`, `file ${round}`),
        transfer('copy', 'src/one', `copied${round}/one`),
        put(`moved${round}/inner.txt`, `inner ${round}`),
        transfer('copy', 'src/two.txt', `moved${round}`),
      ]);
      const statuses = answers.map((answer) => answer.statusCode);
      // Each pair: exactly one of the two wins, the other is told why (409), never a 500.
      const oneWins = (deploy: number, copy: number) =>
        (deploy === 201 && copy === 409) || (deploy === 409 && copy === 200);
      expect(oneWins(statuses[0]!, statuses[1]!), `round ${round}: ${statuses}`).toBe(true);
      expect(oneWins(statuses[2]!, statuses[3]!), `round ${round}: ${statuses}`).toBe(true);
      const copied = await seenAt(`copied${round}`);
      expect(copied).toBe(statuses[0] === 201 ? `file ${round}` : 'folder');
      const moved = await seenAt(`moved${round}`);
      expect(moved).toBe(statuses[2] === 201 ? 'folder' : 'two');
    }
    expect(await treeViolations(depot, 'gen')).toEqual([]);
  });

  it('a deploy into a folder racing its delete leaves the file with its folder, or neither', async () => {
    for (let round = 0; round < 20; round++) {
      const folder = `doomed${round}`;
      await deployFile(depot, 'gen', `${folder}/first.txt`, 'first');
      const [deployed, deleted] = await Promise.all([
        put(`${folder}/second.txt`, `second ${round}`),
        depot.app.inject({
          method: 'DELETE',
          url: `/artifactory/gen/${folder}`,
          headers: adminAuth(),
        }),
      ]);
      expect(deployed.statusCode, deployed.body).toBe(201);
      expect(deleted.statusCode, deleted.body).toBe(204);
      // The delete went first (the deploy made the folder again) or last (it took the file).
      const second = await seenAt(`${folder}/second.txt`);
      expect(['absent', `second ${round}`], `round ${round}`).toContain(second);
      expect(await seenAt(folder)).toBe(second === 'absent' ? 'absent' : 'folder');
      expect(await seenAt(`${folder}/first.txt`)).toBe('absent');
    }
    expect(await treeViolations(depot, 'gen')).toEqual([]);
  });

  it('a deploy by a caller without Delete/Overwrite never replaces a file written meanwhile', async () => {
    await devWithOnlyGrant(depot, {
      repositories: ['gen'],
      include: ['**'],
      exclude: [],
      actions: ['read', 'annotate', 'write'],
    });
    for (let round = 0; round < 20; round++) {
      const path = `owned/f${round}.txt`;
      const [byAdmin, byDev] = await Promise.all([
        put(path, `admin ${round}`),
        depot.app.inject({
          method: 'PUT',
          url: `/artifactory/gen/${path}`,
          headers: { authorization: basic('dev', 'dev-pass-1') },
          payload: `dev ${round}`,
        }),
      ]);
      expect(byAdmin.statusCode).toBe(201);
      // Whichever came first, the admin's file is what stays: the dev may only create.
      expect([201, 403], byDev.body).toContain(byDev.statusCode);
      expect(await seenAt(path), `round ${round}`).toBe(`admin ${round}`);
    }
  });
});
