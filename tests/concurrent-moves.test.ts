import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, createRepository, deployFile, startTestDepot } from './helpers/test-app.ts';
import type { TestDepot } from './helpers/test-app.ts';
import { treeOf, treeViolations } from './helpers/tree-invariants.ts';

let depot: TestDepot;

beforeAll(async () => {
  depot = await startTestDepot();
  await createRepository(depot, 'gen', 'local');
});
afterAll(() => depot?.close());

const move = (from: string, to: string) =>
  depot.app.inject({
    method: 'POST',
    url: `/artifactory/api/move/gen/${from}?to=/gen/${to}`,
    headers: adminAuth(),
  });

describe('concurrent moves of one folder', () => {
  it('six moves to one target: one moves it all, the others answer 404, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const from = `src${round}`;
      await deployFile(depot, 'gen', `${from}/a.txt`, 'a');
      await deployFile(depot, 'gen', `${from}/sub/b.txt`, 'b');
      const answers = await Promise.all(Array.from({ length: 6 }, () => move(from, `dst${round}`)));
      const moved = answers.filter((answer) => answer.statusCode === 200);
      const lost = answers.filter((answer) => answer.statusCode !== 200);
      expect(moved.length, answers.map((a) => a.body).join('\n')).toBe(1);
      expect(moved[0]!.json().messages[0].message).toBe(
        `moving gen:${from} to gen:dst${round} completed successfully, 2 artifacts and 2 folders were moved`,
      );
      for (const answer of lost) {
        expect(answer.statusCode, answer.body).toBe(404);
        expect(answer.json().errors[0].message).toBe(`Could not find 'gen/${from}'`);
      }
    }
    const tree = await treeOf(depot, 'gen');
    expect([...tree.keys()].filter((path) => path.startsWith('src'))).toEqual([]);
    expect(tree.get('dst4/sub/b.txt')).toMatch(/^[0-9a-f]{64}$/);
    expect(await treeViolations(depot, 'gen')).toEqual([]);
  });

  it('moves racing each other over one file answer 200 or 404 and keep its content', async () => {
    await deployFile(depot, 'gen', 'one/f.txt', 'content of f');
    const answers = await Promise.all([
      move('one/f.txt', 'two/f.txt'),
      move('one/f.txt', 'three/f.txt'),
      move('one', 'four'),
    ]);
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200 && s !== 404)).toEqual([]);
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThan(0);
    const tree = await treeOf(depot, 'gen');
    const copies = [...tree.entries()].filter(([path]) => path.endsWith('/f.txt'));
    expect(copies.length).toBe(1);
    expect(await treeViolations(depot, 'gen')).toEqual([]);
  });

  it('refuses a move onto the folder that holds the item, which would delete its own rows', async () => {
    await deployFile(depot, 'gen', 'hold/in/in/f.txt', 'deep');
    const before = await treeOf(depot, 'gen');
    const refused = await move('hold/in', 'hold');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].message).toBe(
      "Cannot move 'hold/in' onto 'hold', a folder that holds it",
    );
    expect(await treeOf(depot, 'gen')).toEqual(before);
    expect(await treeViolations(depot, 'gen')).toEqual([]);
  });
});
