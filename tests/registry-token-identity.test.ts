import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * A registry token lives minutes (DEPOT_DOCKER_TOKEN_SECONDS) and names its user: an admin
 * demoted, or a user deleted, since it was issued must not keep what the token said they were.
 */
let depot: TestDepot;
beforeAll(async () => {
  depot = await startTestDepot();
  await depot.services.repositories.create({
    key: 'vault',
    rclass: 'local',
    packageType: 'docker',
  } as never);
  await depot.services.users.create({
    name: 'boss',
    email: 'boss@example.com',
    password: 'boss-pass-1',
    admin: true,
    groups: [], // not a reader: as a plain user, boss may not read the repository
  } as never);
});
afterAll(() => depot.close());

async function registryToken() {
  const response = await depot.app.inject({
    url: '/v2/token?service=depot&scope=repository:vault/app:pull,push,delete',
    headers: { authorization: basic('boss', 'boss-pass-1') },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().token as string;
}
const tagsWith = (token: string) =>
  depot.app.inject({
    url: '/v2/vault/app/tags/list',
    headers: { authorization: `Bearer ${token}` },
  });

describe("a registry token's user", () => {
  it('is taken as they are now: demoted, then deleted', async () => {
    const token = await registryToken();
    // As an admin the image is looked for (and is not there): the token was let in.
    expect((await tagsWith(token)).json().errors[0].code).toBe('NAME_UNKNOWN');
    const demoted = await depot.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/users/boss',
      headers: adminAuth(),
      payload: { admin: false },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    const asDemoted = await tagsWith(token);
    expect(asDemoted.statusCode).toBe(403);
    expect(asDemoted.json().errors[0].code).toBe('DENIED');
    const deleted = await depot.app.inject({
      method: 'DELETE',
      url: '/artifactory/api/security/users/boss',
      headers: adminAuth(),
    });
    expect(deleted.statusCode).toBe(200);
    const asDeleted = await tagsWith(token);
    expect(asDeleted.statusCode).toBe(401);
    expect(asDeleted.json().errors[0].code).toBe('UNAUTHORIZED');
  });
});
