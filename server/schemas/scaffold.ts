import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from './registry.ts';

const ID = /^[a-z][a-z0-9-]*$/;

/** "license-buckets" → "License Buckets". */
export const titleOf = (id: string) =>
  id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** The entity schema of a new screen: one `name` key field, with the spec's messages. */
export function scaffoldEntity(entityId: string) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: entityId,
    title: titleOf(entityId),
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: {
        type: 'string',
        title: 'Name',
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9._-]*$',
        errorMessage: {
          minLength: 'You must fill in this field',
          maxLength: 'Value may not exceed 64 symbols',
          pattern: 'Name contains illegal characters',
        },
      },
    },
    examples: [{ name: `example-${entityId}` }],
  };
}

/**
 * The descriptor of a new screen: a list and a form under Administration > Configuration,
 * its entity stored by the engine, calls under `/ui/entities/<screen-id>` (a namespace no
 * hand-written route uses).
 */
export function scaffoldDescriptor(screenId: string, entityId: string) {
  const title = titleOf(screenId);
  const one = titleOf(entityId);
  const base = `/ui/entities/${screenId}`;
  return {
    id: screenId,
    title,
    entity: entityId,
    key: 'name',
    route: `/admin/configuration/${screenId}`,
    permission: 'admin',
    menu: { section: 'Administration', group: 'Configuration', label: title },
    store: { kind: 'collection' },
    api: {
      list: { method: 'GET', path: base },
      get: { method: 'GET', path: `${base}/{name}` },
      create: { method: 'POST', path: base },
      update: { method: 'PUT', path: `${base}/{name}` },
      deleteMany: { method: 'POST', path: `${base}/delete`, bodyKey: 'names' },
    },
    list: {
      columns: [{ field: 'name', header: 'Name', link: true }],
      pageSize: 25,
      quickSearch: true,
      newLabel: `New ${one}`,
      deleteConfirm: {
        title: `Delete ${title}`,
        text: `Are you sure you want to delete {count} item(s)?`,
      },
    },
    form: {
      newTitle: `New ${one}`,
      editTitle: `Edit ${one} {name}`,
      fields: ['name'],
      readOnlyOnEdit: ['name'],
    },
  };
}

/**
 * `npm run screen:new`: writes `entities/<entity-id>.schema.json` and
 * `screens/<screen-id>.screen.json` into `dir`, refusing a bad id or a file that exists.
 * Answers the files written, as messages name them.
 */
export async function scaffoldScreen(
  dir: string,
  screenId: string,
  entityId = screenId,
): Promise<string[]> {
  for (const id of [screenId, entityId])
    if (!ID.test(id))
      throw new Error(
        `'${id}' is not an id: expected lower-case letters, digits and dashes, starting with a letter`,
      );
  const files: [string, object][] = [
    [join(dir, 'entities', `${entityId}.schema.json`), scaffoldEntity(entityId)],
    [join(dir, 'screens', `${screenId}.screen.json`), scaffoldDescriptor(screenId, entityId)],
  ];
  for (const [file] of files)
    if (existsSync(file))
      throw new Error(`${displayPath(dir, file)} exists already; nothing was written`);
  // Written as prettier writes JSON, so that `npm run lint` passes the new files as they are.
  const prettier = await import('prettier');
  for (const [file, value] of files) {
    const options = (await prettier.resolveConfig(file)) ?? {};
    writeFileSync(
      file,
      await prettier.format(JSON.stringify(value), { ...options, filepath: file }),
    );
  }
  return files.map(([file]) => displayPath(dir, file));
}
