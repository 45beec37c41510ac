import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRASH_REPO_KEY } from '../server/modules/trash/service.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';

let depot: HttpDepot;
beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.repositories.create({
    key: 'libs',
    rclass: 'local',
    packageType: 'generic',
  });
  for (const path of ['app/1.0/app.jar', 'app/1.0/app.pom', 'tools/t.txt', 'old/x.txt']) {
    expect(
      (
        await depot.request(`/artifactory/libs/${path}`, {
          method: 'PUT',
          body: `content of ${path}`,
        })
      ).status,
    ).toBe(201);
  }
});
afterAll(() => depot?.close());

const status = async (path: string) => (await depot.request(`/artifactory/${path}`)).status;
const del = (path: string) => depot.request(`/artifactory/${path}`, { method: 'DELETE' });
const post = (path: string) => depot.request(`/artifactory/api/trash/${path}`, { method: 'POST' });

describe('the trash can', () => {
  it('receives deleted items under {repoKey}/{path}, with who and when', async () => {
    expect((await del('libs/app/1.0')).status).toBe(204);
    expect(await status('libs/app/1.0/app.jar')).toBe(404);
    expect(await status(`${TRASH_REPO_KEY}/libs/app/1.0/app.jar`)).toBe(200);
    const props = await (
      await depot.request(`/artifactory/api/storage/${TRASH_REPO_KEY}/libs/app/1.0?properties`)
    ).json();
    expect(props.properties['trash.deletedBy']).toEqual(['admin']);
    expect(Date.parse(props.properties['trash.deleted'][0])).not.toBeNaN();
  });

  it('restores an item to where it was', async () => {
    const response = await post('restore/libs/app/1.0');
    expect(response.status).toBe(200);
    expect(await status('libs/app/1.0/app.jar')).toBe(200);
    expect(await status(`${TRASH_REPO_KEY}/libs/app/1.0/app.jar`)).toBe(404);
    const props = await (
      await depot.request('/artifactory/api/storage/libs/app/1.0?properties')
    ).json();
    expect(props.properties).toEqual({});
  });

  it('restores to another place when asked', async () => {
    await del('libs/tools/t.txt');
    expect((await post('restore/libs/tools/t.txt?to=libs/recovered/t.txt')).status).toBe(200);
    expect(await status('libs/recovered/t.txt')).toBe(200);
  });

  it('deletes for good inside the trash, and when emptied', async () => {
    await del('libs/old/x.txt');
    expect((await del(`${TRASH_REPO_KEY}/libs/old/x.txt`)).status).toBe(204);
    expect(await status(`${TRASH_REPO_KEY}/libs/old/x.txt`)).toBe(404);
    await del('libs/app/1.0/app.pom');
    expect((await post('empty')).status).toBe(200);
    expect(await status(`${TRASH_REPO_KEY}/libs/app/1.0/app.pom`)).toBe(404);
  });

  it('purges what is older than the retention period', async () => {
    await del('libs/recovered/t.txt');
    expect(await depot.services.trash.purgeExpired(new Date())).toBe(0);
    const later = new Date(Date.now() + 15 * 24 * 3600 * 1000);
    expect(await depot.services.trash.purgeExpired(later)).toBe(1);
    expect(await status(`${TRASH_REPO_KEY}/libs/recovered/t.txt`)).toBe(404);
  });

  it('is skipped when turned off: deletes are permanent', async () => {
    const off = await depot.request('/ui/api/v1/ui/trashcan', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false }),
    });
    expect(await off.json()).toEqual({ enabled: false, retentionPeriodDays: 14 });
    await del('libs/app/1.0/app.jar');
    expect(await status(`${TRASH_REPO_KEY}/libs/app/1.0/app.jar`)).toBe(404);
  });

  it('is not listed or creatable as a repository', async () => {
    const list = await (await depot.request('/artifactory/api/repositories')).json();
    expect(list.map((r: { key: string }) => r.key)).toEqual(['libs']);
    const create = await depot.request(`/artifactory/api/repositories/${TRASH_REPO_KEY}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    });
    expect(create.status).toBe(400);
  });
});
