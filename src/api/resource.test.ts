import { describe, expect, it } from 'vitest';
import ky from 'ky';
import { ApiError } from './ApiError';
import { errorMessage } from './errorMessage';
import { createResourceClient, fetchChoices, fillPath, runRowAction } from './resource';
import type { ResourceApi } from './descriptor';
import { http } from './client';

interface Recorded {
  method: string;
  url: string;
  body: string;
  csrf: string | null;
}

/** A ky instance like the console's, talking to an in-memory fetch that records requests. */
function recordingClient(answer: (req: Request) => Response = () => new Response('[]')) {
  const requests: Recorded[] = [];
  const client = http.extend({
    prefixUrl: 'http://depot.test/ui/api/v1',
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push({
        method: request.method,
        url: request.url,
        body: await request.clone().text(),
        csrf: request.headers.get('X-CSRF-Token'),
      });
      return answer(request);
    },
  });
  return { client, requests };
}

const usersApi: ResourceApi = {
  list: { method: 'GET', path: '/ui/users' },
  get: { method: 'GET', path: '/ui/users/{name}' },
  create: { method: 'POST', path: '/ui/users' },
  update: { method: 'PUT', path: '/ui/users/{name}' },
  deleteMany: { method: 'POST', path: '/ui/users/userDelete', bodyKey: 'userNames' },
};

describe('fillPath', () => {
  it('fills and URL-encodes placeholders', () => {
    expect(fillPath('/ui/users/{name}/expirePassword', { name: 'a b/c?' })).toBe(
      '/ui/users/a%20b%2Fc%3F/expirePassword',
    );
  });
  it('refuses a missing value', () => {
    expect(() => fillPath('/ui/users/{name}', {})).toThrow('No value for "{name}"');
  });
});

describe('createResourceClient', () => {
  it('lists, gets, creates, updates and deletes at the descriptor paths', async () => {
    const { client, requests } = recordingClient();
    const users = createResourceClient(usersApi, 'name', client);
    await users.list();
    await users.get('jo é');
    await users.create({ name: 'jo', email: 'jo@x.io' });
    await users.update('jo', { email: 'new@x.io' });
    await users.deleteMany(['a', 'b']);
    const base = 'http://depot.test/ui/api/v1';
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${base}/ui/users`,
      `GET ${base}/ui/users/jo%20%C3%A9`,
      `POST ${base}/ui/users`,
      `PUT ${base}/ui/users/jo`,
      `POST ${base}/ui/users/userDelete`,
    ]);
    expect(JSON.parse(requests[2].body)).toEqual({ name: 'jo', email: 'jo@x.io' });
    expect(JSON.parse(requests[3].body)).toEqual({ email: 'new@x.io' });
    expect(JSON.parse(requests[4].body)).toEqual({ userNames: ['a', 'b'] });
  });

  it('sends the depot_csrf cookie as X-CSRF-Token on mutating calls only', async () => {
    document.cookie = 'depot_csrf=token-123; path=/';
    const { client, requests } = recordingClient();
    const users = createResourceClient(usersApi, 'name', client);
    await users.list();
    await users.deleteMany(['a']);
    expect(requests[0].csrf).toBeNull();
    expect(requests[1].csrf).toBe('token-123');
    document.cookie = 'depot_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('turns an error answer into an ApiError with the body read', async () => {
    const body = { errors: [{ status: 409, message: "User 'jo' already exists", field: 'name' }] };
    const { client } = recordingClient(() => new Response(JSON.stringify(body), { status: 409 }));
    const error = await createResourceClient(usersApi, 'name', client)
      .create({ name: 'jo' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).fieldErrors).toEqual([
      { field: 'name', message: "User 'jo' already exists" },
    ]);
  });

  it('words an error answer with no message plainly, naming the status', async () => {
    const { client } = recordingClient(() => new Response(null, { status: 502 }));
    const error = await createResourceClient(usersApi, 'name', client)
      .list()
      .catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(502);
    expect(errorMessage(error)).toBe('The request failed (the server answered 502)');
  });

  it('reports a network failure as an ApiError without response', async () => {
    const client = ky.create({
      prefixUrl: 'http://depot.test',
      retry: 0,
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const error = await createResourceClient(usersApi, 'name', client)
      .list()
      .catch((e: unknown) => e);
    expect((error as ApiError).hasResponse).toBe(false);
  });
});

describe('row actions and choices', () => {
  it('runs a row action with the row values in the path', async () => {
    const { client, requests } = recordingClient(() => new Response(''));
    await runRowAction(
      { id: 'x', label: 'Expire', method: 'POST', path: '/ui/users/{name}/expirePassword' },
      { name: 'bo b' },
      client,
    );
    expect(requests[0].url).toBe('http://depot.test/ui/api/v1/ui/users/bo%20b/expirePassword');
  });

  it('sends the row as a one-item list when the action says bodyFrom', async () => {
    const { client, requests } = recordingClient(() => new Response(''));
    await runRowAction(
      {
        id: 'u',
        label: 'Unlock',
        method: 'POST',
        path: '/ui/securityconfig/unlockUsers',
        bodyFrom: 'name',
      },
      { name: 'jo', email: 'jo@example.com' },
      client,
    );
    expect(requests[0].url).toBe('http://depot.test/ui/api/v1/ui/securityconfig/unlockUsers');
    expect(JSON.parse(requests[0].body)).toEqual(['jo']);
  });

  it('sends the row field under bodyKey when the action names one', async () => {
    const { client, requests } = recordingClient(() => new Response(''));
    await runRowAction(
      {
        id: 'r',
        label: 'Re-invite',
        method: 'POST',
        path: '/access/entities/users/invited/reInvite',
        bodyFrom: 'name',
        bodyKey: 'userName',
      },
      { name: 'jo', email: 'jo@example.com' },
      client,
    );
    expect(JSON.parse(requests[0].body)).toEqual({ userName: 'jo' });
  });

  it('maps option items by valueKey', async () => {
    const groups = [{ groupName: 'readers' }, { groupName: 'writers' }];
    const { client } = recordingClient(() => new Response(JSON.stringify(groups)));
    expect(await fetchChoices({ path: '/ui/users/groups', valueKey: 'groupName' }, client)).toEqual(
      ['readers', 'writers'],
    );
  });

  it('reads the items from listKey of an object answer, each item the choice itself', async () => {
    const names = { builds: ['app', 'lib'], total: 2, hasMore: false };
    const { client, requests } = recordingClient(() => new Response(JSON.stringify(names)));
    expect(await fetchChoices({ path: '/ui/builds/names', listKey: 'builds' }, client)).toEqual([
      'app',
      'lib',
    ]);
    expect(requests[0]!.url).toBe('http://depot.test/ui/api/v1/ui/builds/names');
  });
});
