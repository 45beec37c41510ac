import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../server/paths.ts';
import { startHttpDepot, type HttpDepot } from './helpers/http-depot.ts';
import { copySchemas } from './helpers/schemas-copy.ts';

/**
 * A product owner's path, end to end: `npm run screen:new`, a field added to the two JSON
 * files, schemas:check, a (re)start, and the screen's calls working for real over HTTP, with
 * nothing written outside the schemas folder.
 */
const schemas = copySchemas();
let depot: HttpDepot | undefined;
afterAll(async () => {
  await depot?.close();
  schemas.remove();
});

const NPM_RUN_LIMIT_MS = 120_000;
const npmRun = (...args: string[]) =>
  spawnSync('npm', ['run', '--silent', ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, DEPOT_SCHEMAS_DIR: schemas.dir },
    timeout: NPM_RUN_LIMIT_MS,
  });
/**
 * A test of `npm run`s may take as long as its runs may (each starts npm and tsx: 3-5 s
 * alone, over 10 s on a loaded machine): vitest's 30 s default ended one of three runs that
 * had passed.
 */
const runsLimit = (runs: number) => ({ timeout: runs * NPM_RUN_LIMIT_MS });
const filesIn = (dir: string) =>
  ['entities', 'screens', 'meta'].flatMap((folder) =>
    readdirSync(join(dir, folder)).map((name) => `${folder}/${name}`),
  );
/** The two files as a product owner edits them: by hand, as JSON. */
type Editable = {
  properties: Record<string, object>;
  form: { fields: string[] };
  list: { columns: object[] };
};
const editJson = (path: string, change: (value: Editable) => void) => {
  const file = join(schemas.dir, path);
  const value = JSON.parse(readFileSync(file, 'utf8'));
  change(value);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};

describe('a screen from screen:new', () => {
  it('writes the two files and nothing else, which schemas:check passes', runsLimit(3), () => {
    const before = filesIn(schemas.dir);
    const made = npmRun('screen:new', '--', 'release-notes', '--entity', 'release-note');
    expect(made.status, made.stderr).toBe(0);
    expect(
      filesIn(schemas.dir)
        .filter((f) => !before.includes(f))
        .sort(),
    ).toEqual(['entities/release-note.schema.json', 'screens/release-notes.screen.json']);
    const again = npmRun('screen:new', '--', 'release-notes', '--entity', 'release-note');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('exists already');
    const checked = npmRun('schemas:check');
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
  });

  it('takes a field added to the entity and to form.fields and list.columns', runsLimit(1), () => {
    editJson('entities/release-note.schema.json', (entity) => {
      entity.properties.summary = {
        type: 'string',
        title: 'Summary',
        maxLength: 200,
        errorMessage: { maxLength: 'Value may not exceed 200 symbols' },
      };
    });
    editJson('screens/release-notes.screen.json', (screen) => {
      screen.form.fields.push('summary');
      screen.list.columns.push({ field: 'summary', header: 'Summary' });
    });
    const checked = npmRun('schemas:check');
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
  });

  it('lists, creates, reads, edits, validates and deletes after a restart', async () => {
    depot = await startHttpDepot({ DEPOT_SCHEMAS_DIR: schemas.dir });
    const api = (path: string, method = 'GET', body?: object) =>
      depot!.request(`/ui/api/v1/ui/entities/release-notes${path}`, {
        method,
        ...(body
          ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
          : {}),
      });
    const screen = await depot.request('/ui/api/v1/schemas/screens/release-notes');
    expect((await screen.json()).entitySchema.properties.summary.title).toBe('Summary');

    expect(await (await api('')).json()).toEqual([]);
    const created = await api('', 'POST', { name: 'v1.0', summary: 'First' });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ name: 'v1.0', summary: 'First' });
    const edited = await api('/v1.0', 'PUT', { summary: 'First release' });
    expect(await edited.json()).toEqual({ name: 'v1.0', summary: 'First release' });
    expect(await (await api('')).json()).toEqual([{ name: 'v1.0', summary: 'First release' }]);

    const badName = await api('', 'POST', { name: 'v 2' });
    expect(badName.status).toBe(400);
    expect((await badName.json()).errors[0]).toMatchObject({
      field: 'name',
      message: 'Name contains illegal characters',
    });
    const tooLong = await api('', 'POST', { name: 'v2', summary: 'x'.repeat(201) });
    expect((await tooLong.json()).errors[0]).toMatchObject({
      field: 'summary',
      message: 'Value may not exceed 200 symbols',
    });
    const twice = await api('', 'POST', { name: 'v1.0' });
    expect(twice.status).toBe(409);
    expect((await twice.json()).errors[0].message).toBe('This name already exist');

    const deleted = await api('/delete', 'POST', { names: ['v1.0'] });
    expect(deleted.status).toBe(200);
    expect((await api('/v1.0')).status).toBe(404);
  });
});
