import ky from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, onServerFailure, onSessionChangedElsewhere } from './client';
import { ApiError } from './ApiError';

/**
 * The two statuses of spec 01 §8 the console acts on: 420 (the session ended elsewhere: go
 * to sign-in) and 333 (the cookie now belongs to another user: reload). Neither is a
 * server failure, so neither opens the "Oops!" dialog.
 */
const answering = (status: number) =>
  ky.create({
    prefixUrl: 'http://depot.test/ui/api/v1',
    retry: 0,
    fetch: async () =>
      new Response(JSON.stringify({ errors: [{ message: `status ${status}` }] }), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
  });

const stops: Array<() => void> = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

function listen() {
  const changes: string[] = [];
  const failures: ApiError[] = [];
  stops.push(onSessionChangedElsewhere((change) => changes.push(change)));
  stops.push(onServerFailure((error) => failures.push(error)));
  return { changes, failures };
}

describe('the session statuses of the error catalogue', () => {
  it('420 tells the shell the session ended, and rejects with the answer', async () => {
    const { changes, failures } = listen();
    const failed = call('GET', '/ui/users', {}, answering(420));
    await expect(failed).rejects.toMatchObject({
      status: 420,
      body: { errors: expect.any(Array) },
    });
    expect(changes).toEqual(['ended']);
    expect(failures).toEqual([]);
  });

  it('333 tells the shell the user changed', async () => {
    const { changes, failures } = listen();
    await expect(call('GET', '/ui/users', {}, answering(333))).rejects.toBeInstanceOf(ApiError);
    expect(changes).toEqual(['changed']);
    expect(failures).toEqual([]);
  });

  it('other answers are neither (a 401 and a 500: the 500 opens the error dialog)', async () => {
    const { changes, failures } = listen();
    await expect(call('GET', '/x', {}, answering(401))).rejects.toBeInstanceOf(ApiError);
    await expect(call('GET', '/x', {}, answering(500))).rejects.toBeInstanceOf(ApiError);
    expect(changes).toEqual([]);
    expect(failures.map((f) => f.status)).toEqual([500]);
  });
});

describe('what the shell does with them', () => {
  it('420 goes to sign-in with the logout flag, remembering the page; 333 reloads', async () => {
    vi.resetModules();
    const navigation = await import('../shell/navigation/model');
    const session = await import('../shell/session/model');
    const client = await import('./client');
    const navigate = vi.fn();
    const reload = vi.fn();
    navigation.navigateFx.use(navigate);
    session.reloadFx.use(reload);
    await session.watchSessionElsewhereFx();

    await expect(client.call('GET', '/ui/users', {}, answering(420))).rejects.toThrow();
    expect(navigate).toHaveBeenCalledWith({
      to: '/login?logout=true&fromUnauthorized=true',
      rememberCurrent: true,
    });
    expect(reload).not.toHaveBeenCalled();
    await expect(client.call('GET', '/ui/users', {}, answering(333))).rejects.toThrow();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
