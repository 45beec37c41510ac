import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import type { BuildSummary } from './api';
import {
  $builds,
  $deleteFailed,
  $hasMore,
  $listFailed,
  $versions,
  deleteFx,
  deleteRequested,
  historyFx,
  listOpened,
  moreRequested,
  PAGE_SIZE,
  searchFx,
} from './model';

const summary = (name: string) => ({ build_name: name }) as BuildSummary;

/** The builds model without a network: effects answered by handlers (fork), as CONVENTIONS.md asks. */
describe('the builds model', () => {
  it('opens the list at the first page and appends the next one', async () => {
    const asked: { name: string; offset: number }[] = [];
    const scope = fork({
      handlers: [
        [
          searchFx,
          async (query: { name: string; offset: number }) => {
            asked.push({ name: query.name, offset: query.offset });
            return query.offset === 0
              ? { versions: [summary('a'), summary('b')], total: 3, hasMore: true }
              : { versions: [summary('c')], total: 3, hasMore: false };
          },
        ],
      ],
    });
    await allSettled(listOpened, { scope, params: 'app' });
    expect(scope.getState($builds).map((b) => b.build_name)).toEqual(['a', 'b']);
    expect(scope.getState($hasMore)).toBe(true);
    await allSettled(moreRequested, { scope });
    expect(asked).toEqual([
      { name: 'app', offset: 0 },
      { name: 'app', offset: 2 },
    ]);
    expect(scope.getState($builds).map((b) => b.build_name)).toEqual(['a', 'b', 'c']);
    expect(scope.getState($hasMore)).toBe(false);
    expect(PAGE_SIZE).toBe(50);
  });

  it('says a failed search failed instead of showing an empty list', async () => {
    const scope = fork({
      handlers: [
        [
          searchFx,
          async () => {
            throw new Error('offline');
          },
        ],
      ],
    });
    await allSettled(listOpened, { scope, params: '' });
    expect(scope.getState($listFailed)).toBe(true);
    expect(scope.getState($builds)).toEqual([]);
  });

  it("shows the versions again after one is deleted, and the refusal's words", async () => {
    let deletes = 0;
    const scope = fork({
      values: [[$versions, []]],
      handlers: [
        [historyFx, async () => ({ history: [{ buildNumber: '2' }] as never })],
        [
          deleteFx,
          async () => {
            deletes += 1;
            if (deletes === 2) throw new Error('You may not delete build app #2');
          },
        ],
      ],
    });
    await allSettled(historyFx, { scope, params: { name: 'app' } });
    await allSettled(deleteRequested, {
      scope,
      params: [{ name: 'app', number: '1', startTime: '1' }],
    });
    expect(scope.getState($versions)).toEqual([{ buildNumber: '2' }]);
    expect(scope.getState($deleteFailed)).toBeNull();
    await allSettled(deleteRequested, {
      scope,
      params: [{ name: 'app', number: '2', startTime: '2' }],
    });
    expect(scope.getState($deleteFailed)).toBe('You may not delete build app #2');
  });
});
