import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTY_MESSAGES } from '../server/modules/artifact-properties/messages.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { adminAuth } from './helpers/test-app.ts';

/**
 * How much one request may set or delete as properties (issue 22, item 9): the storage API
 * and the console's Properties tab refuse a larger batch with a 400 naming the limit, before
 * anything is written; a recursive change on a folder larger than one page of items reaches
 * every item below it, set and deleted. Real HTTP on loopback for the scripted calls.
 */
let depot: HttpDepot;
const FILES = 450; // more than two pages of items (200 a page)

beforeAll(async () => {
  depot = await startHttpDepot();
  await depot.services.repositories.create({
    key: 'libs',
    rclass: 'local',
    packageType: 'generic',
  });
  const deployed = await depot.request('/artifactory/libs/wide/seed.txt', {
    method: 'PUT',
    body: 'seed',
  });
  expect(deployed.status).toBe(201);
  // Five files: with 250 values each (the most), a page holds one item.
  for (let i = 0; i < 5; i++)
    expect(
      (await depot.request(`/artifactory/libs/narrow/n-${i}.txt`, { method: 'PUT', body: 'n' }))
        .status,
    ).toBe(201);
  const repo = await depot.services.artifacts.repository('libs');
  await sql`
    insert into nodes (repository_id, path, parent_path, name, folder, size, created_by, modified_by)
    select ${repo.id}, 'wide/f-' || i || '.bin', 'wide', 'f-' || i || '.bin', false, 1, 's', 's'
    from generate_series(1, ${FILES - 1}) as i`.execute(depot.db);
});
afterAll(() => depot?.close());

const storage = (path: string, method: string) =>
  depot.request(`/artifactory/api/storage/libs/${path}`, { method });

/** The 400's message, or the status when the answer was not a 400. */
async function refusal(response: Response) {
  if (response.status !== 400) return response.status;
  return (await response.json()).errors[0].message as string;
}

/** Rows of node_properties in a folder and below it, by key. */
async function rowsBelow(folder: string): Promise<Record<string, number>> {
  const result = await sql<{ key: string; rows: string }>`
    select p.key, count(*) as rows from node_properties p join nodes n on n.id = p.node_id
    where n.path = ${folder} or n.path like ${`${folder}/%`} group by p.key`.execute(depot.db);
  return Object.fromEntries(result.rows.map((row) => [row.key, Number(row.rows)]));
}
const rowsBelowWide = () => rowsBelow('wide');

const values = (count: number, prefix = 'v') =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(',');

const consoleSet = (path: string, body: object, recursive = false) =>
  depot.request(
    `/ui/api/v1/ui/artifactproperties?repoKey=libs&path=${path}&recursive=${recursive}`,
    {
      method: 'POST',
      headers: { ...adminAuth(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  );

const consoleDelete = (path: string, properties: string[], recursive = false) =>
  depot.request(`/ui/api/v1/ui/deleteproperties?repoKey=libs&path=${path}&recursive=${recursive}`, {
    method: 'POST',
    headers: { ...adminAuth(), 'content-type': 'application/json' },
    body: JSON.stringify({ properties }),
  });

describe('the storage API refuses a batch past its limits, writing nothing', () => {
  it('a property with more than 100 values', async () => {
    const response = await storage(`wide?properties=many=${values(101)}`, 'PUT');
    expect(await refusal(response)).toBe(PROPERTY_MESSAGES.tooManyValues);
    expect(await rowsBelowWide()).toEqual({});
  });

  it('a value longer than 4000 characters', async () => {
    const response = await storage(`wide?properties=long=${'x'.repeat(4001)}`, 'PUT');
    expect(await refusal(response)).toBe(PROPERTY_MESSAGES.valueTooLong);
    expect(await rowsBelowWide()).toEqual({});
  });

  it('more than 250 values in all', async () => {
    const keys = Array.from({ length: 3 }, (_, k) => `k${k}=${values(100)}`).join(';');
    const response = await storage(`wide?properties=${keys}`, 'PUT');
    expect(await refusal(response)).toBe(PROPERTY_MESSAGES.tooManyValuesInRequest);
    expect(PROPERTY_MESSAGES.tooManyValuesInRequest).toBe(
      'One request sets at most 250 property values in all',
    );
    expect(await rowsBelowWide()).toEqual({});
  });

  it('a delete of more than 1000 names', async () => {
    const names = Array.from({ length: 1001 }, (_, i) => `n${i}`).join(',');
    const response = await storage(`wide?properties=${names}`, 'DELETE');
    expect(await refusal(response)).toBe('One request deletes at most 1000 properties');
  });
});

describe('the console refuses a batch past its limits, writing nothing', () => {
  it('names and values of more than 65,536 characters in all', async () => {
    const body = { name: 'notes', value: Array.from({ length: 100 }, () => 'n'.repeat(656)) };
    const response = await consoleSet('wide', body, true);
    expect(await refusal(response)).toBe(
      "One request's property names and values hold at most 65,536 characters in all",
    );
    expect(await rowsBelowWide()).toEqual({});
  });

  it('a delete of more than 1000 names', async () => {
    const names = Array.from({ length: 1001 }, (_, i) => `n${i}`);
    expect(await refusal(await consoleDelete('wide', names, true))).toBe(
      PROPERTY_MESSAGES.tooManyNamesToDelete,
    );
  });
});

describe('a recursive change reaches every item, page after page', () => {
  it('sets and deletes 250 values (the most) on every item, one item a page', async () => {
    const keys = Array.from({ length: 5 }, (_, k) => `k${k}=${values(50)}`).join(';');
    expect((await storage(`narrow?properties=${keys}&recursive=1`, 'PUT')).status).toBe(204);
    const items = 5 + 1; // the files and the folder itself
    expect(await rowsBelow('narrow')).toEqual(
      Object.fromEntries(Array.from({ length: 5 }, (_, k) => [`k${k}`, items * 50])),
    );
    const last = await depot.request('/artifactory/api/storage/libs/narrow/n-4.txt?properties');
    expect((await last.json()).properties.k4).toHaveLength(50);

    const names = Array.from({ length: 5 }, (_, k) => `k${k}`).join(',');
    expect((await storage(`narrow?properties=${names}&recursive=1`, 'DELETE')).status).toBe(204);
    expect(await rowsBelow('narrow')).toEqual({});
  });

  it('replaces a property on every item of a folder of three pages, and deletes it', async () => {
    const set = await consoleSet('wide', { name: 'stage', value: ['rc', 'final'] }, true);
    expect(set.status, await set.clone().text()).toBe(200);
    expect(await rowsBelowWide()).toEqual({ stage: (FILES + 1) * 2 });
    const replaced = await consoleSet('wide', { name: 'stage', value: ['done'] }, true);
    expect(replaced.status).toBe(200);
    expect(await rowsBelowWide()).toEqual({ stage: FILES + 1 });
    expect((await consoleDelete('wide', ['stage'], true)).status).toBe(200);
    expect(await rowsBelowWide()).toEqual({});
  });
});
