import { describe, expect, it, vi } from 'vitest';
import { allSettled, fork } from 'effector';
import { ApiError } from '../../api/ApiError';
import { $notifications, dismissLaterFx } from '../../shell/notifications/model';
import { groupsDescriptor, usersDescriptor } from '../testing';
import {
  $rows,
  deleteConfirmed,
  deleteRowsFx,
  fetchRowsFx,
  listOpened,
  rowActionConfirmed,
  runRowActionFx,
} from './model';

const rows = [{ name: 'admin' }, { name: 'jo' }];
const failure = (status: number, body: unknown) =>
  new ApiError({ message: `status ${status}`, status, body, method: 'POST', url: '/x' });

function setup(overrides: Array<[unknown, unknown]> = []) {
  const fetchRows = vi.fn(async () => rows);
  const handlers = new Map<unknown, unknown>([
    [fetchRowsFx, fetchRows],
    [dismissLaterFx, async () => -1], // toasts stay, so the test can read them
    ...overrides,
  ]);
  return { scope: fork({ handlers: handlers as never }), fetchRows };
}

const texts = (scope: ReturnType<typeof fork>) =>
  scope.getState($notifications).map((n) => `${n.kind}: ${n.text}`);

describe('list model', () => {
  it('fetches the rows of the list that opens', async () => {
    const { scope, fetchRows } = setup();
    await allSettled(listOpened, { scope, params: usersDescriptor });
    expect(fetchRows).toHaveBeenCalledWith(usersDescriptor);
    expect(scope.getState($rows)).toEqual(rows);
  });

  it('drops a late answer for a list that is no longer open', async () => {
    let release: (value: unknown) => void = () => {};
    const slowUsers = new Promise((resolve) => (release = resolve));
    const fetchRows = vi.fn((d: { id: string }) =>
      d.id === 'users' ? slowUsers : Promise.resolve([{ name: 'devs' }]),
    );
    const { scope } = setup([[fetchRowsFx, fetchRows]]);
    // Both lists open before the users answer comes; allSettled waits for every effect.
    const users = allSettled(listOpened, { scope, params: usersDescriptor });
    const groups = allSettled(listOpened, { scope, params: groupsDescriptor });
    release(rows);
    await Promise.all([users, groups]);
    expect(scope.getState($rows)).toEqual([{ name: 'devs' }]);
  });

  it('deletes the confirmed keys, says so, and reloads', async () => {
    const deleteRows = vi.fn(async () => undefined);
    const { scope, fetchRows } = setup([[deleteRowsFx, deleteRows]]);
    await allSettled(listOpened, { scope, params: usersDescriptor });
    await allSettled(deleteConfirmed, { scope, params: ['jo', 'bo'] });
    expect(deleteRows).toHaveBeenCalledWith({ descriptor: usersDescriptor, keys: ['jo', 'bo'] });
    expect(texts(scope)).toEqual(['success: 2 user(s) deleted']);
    expect(fetchRows).toHaveBeenCalledTimes(2);
  });

  it("shows the server's reason when a delete is refused, and keeps the rows", async () => {
    const refusal = failure(400, {
      errors: [{ status: 400, message: 'You cannot delete yourself' }],
    });
    const { scope } = setup([[deleteRowsFx, async () => Promise.reject(refusal)]]);
    await allSettled(listOpened, { scope, params: usersDescriptor });
    await allSettled(deleteConfirmed, { scope, params: ['admin'] });
    expect(texts(scope)).toEqual(['error: You cannot delete yourself']);
    expect(scope.getState($rows)).toEqual(rows);
  });

  it('leaves 5xx failures to the error dialog: no toast', async () => {
    const { scope } = setup([[deleteRowsFx, async () => Promise.reject(failure(500, 'boom'))]]);
    await allSettled(listOpened, { scope, params: usersDescriptor });
    await allSettled(deleteConfirmed, { scope, params: ['jo'] });
    expect(texts(scope)).toEqual([]);
  });

  it('runs a row action on the row and reports it', async () => {
    const run = vi.fn(async () => undefined);
    const { scope } = setup([[runRowActionFx, run]]);
    const action = usersDescriptor.rowActions![0];
    await allSettled(listOpened, { scope, params: usersDescriptor });
    await allSettled(rowActionConfirmed, { scope, params: { action, row: { name: 'jo' } } });
    expect(run).toHaveBeenCalledWith({ descriptor: usersDescriptor, action, row: { name: 'jo' } });
    expect(texts(scope)).toEqual(["success: Expire Password: done for 'jo'"]);
  });
});
