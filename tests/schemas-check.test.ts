import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../server/paths.ts';
import { checkSchemas } from '../server/schemas/check.ts';
import { descriptorTypeProblems } from '../server/schemas/descriptor-type-file.ts';
import { formatProblem } from '../server/schemas/problems.ts';
import { loadSchemaRegistry } from '../server/schemas/registry.ts';
import { listServerRoutes } from '../server/schemas/route-list.ts';
import { copySchemas } from './helpers/schemas-copy.ts';
import { startTestDepot, type TestDepot } from './helpers/test-app.ts';

/** `npm run schemas:check` as CI runs it, on the project's schemas or on a copy. */
function runCheck(schemasDir?: string) {
  const result = spawnSync(process.execPath, ['scripts/schemas-check.mjs'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...(schemasDir ? { DEPOT_SCHEMAS_DIR: schemasDir } : {}) },
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const entity = (id: string, properties: object, extra: object = {}) => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: id,
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, ...properties },
  ...extra,
});
const screen = (id: string, extra: object = {}) => ({
  id,
  title: id,
  entity: 'planted',
  key: 'name',
  route: `/admin/configuration/${id}`,
  permission: 'admin',
  api: {
    list: { method: 'GET', path: '/ui/users' },
    get: { method: 'GET', path: '/ui/users/{name}' },
    create: { method: 'POST', path: '/ui/users' },
    update: { method: 'PUT', path: '/ui/users/{name}' },
    deleteMany: { method: 'POST', path: '/ui/users/userDelete', bodyKey: 'userNames' },
  },
  list: { columns: [{ field: 'name', header: 'Name' }] },
  form: { fields: ['name'] },
  ...extra,
});

/**
 * One mistake per file, each of the kinds schemas:check must catch, and the line it must
 * print for it: the file, the JSON pointer, and words of what was expected.
 */
const PLANTED: { path: string; content: unknown; expected: [string, string][] }[] = [
  { path: 'entities/planted.schema.json', content: entity('planted', {}), expected: [] },
  {
    path: 'entities/broken-json.schema.json',
    content: '{ "$id": "broken-json", "type": "object",\n  "properties": { }\n',
    expected: [['schemas/entities/broken-json.schema.json#', 'is not valid JSON at line 3']],
  },
  {
    path: 'entities/typo-keyword.schema.json',
    content: entity('typo-keyword', { size: { type: 'integer', maximun: 5 } }),
    expected: [
      ['schemas/entities/typo-keyword.schema.json#/properties/size/maximun', 'not a keyword'],
    ],
  },
  {
    path: 'entities/missing-required.schema.json',
    content: entity('missing-required', {}, { required: ['name', 'nmae'] }),
    expected: [['schemas/entities/missing-required.schema.json#/required/1', "names 'nmae'"]],
  },
  {
    path: 'entities/bad-values.schema.json',
    content: entity(
      'bad-values',
      { size: { type: 'integer', minimum: 1, default: 0 } },
      { examples: [{ name: 7 }] },
    ),
    expected: [
      ['schemas/entities/bad-values.schema.json#/properties/size/default', 'fails its own schema'],
      ['schemas/entities/bad-values.schema.json#/examples/0', 'fails its own schema at /name'],
    ],
  },
  {
    path: 'entities/stray-message.schema.json',
    content: entity('stray-message', {
      code: { type: 'string', maxLength: 5, errorMessage: { minLength: 'Too short' } },
    }),
    expected: [
      [
        'schemas/entities/stray-message.schema.json#/properties/code/errorMessage/minLength',
        "'minLength', a keyword this schema does not use",
      ],
    ],
  },
  {
    path: 'screens/planted-widget.screen.json',
    content: screen('planted-widget', {
      form: { fields: ['name'], uiSchema: { name: { 'ui:widget': 'colorWheel' } } },
    }),
    expected: [
      [
        'schemas/screens/planted-widget.screen.json#/form/uiSchema/name/ui:widget',
        "'colorWheel' is not a widget",
      ],
    ],
  },
  {
    path: 'screens/planted-form-parts.screen.json',
    content: screen('planted-form-parts', {
      form: {
        fields: ['name'],
        uiSchema: { name: { 'ui:field': 'keyValues' } },
        sections: [{ title: 'General', fields: ['name', 'nmae'] }],
      },
    }),
    expected: [
      [
        'schemas/screens/planted-form-parts.screen.json#/form/uiSchema/name/ui:field',
        "'keyValues' is not a field the console's registry has",
      ],
      [
        'schemas/screens/planted-form-parts.screen.json#/form/sections/0/fields/1',
        "names 'nmae', which is not one of form.fields",
      ],
    ],
  },
  {
    path: 'screens/planted-fields.screen.json',
    content: screen('planted-fields', {
      list: { columns: [{ field: 'shoeSize', header: 'Shoe' }] },
      form: { fields: ['name', 'hatSize'] },
    }),
    expected: [
      ['schemas/screens/planted-fields.screen.json#/list/columns/0/field', "'shoeSize'"],
      ['schemas/screens/planted-fields.screen.json#/form/fields/1', "'hatSize'"],
    ],
  },
  {
    path: 'screens/planted-endpoint.screen.json',
    content: screen('planted-endpoint', {
      rowActions: [{ id: 'poke', label: 'Poke', method: 'POST', path: '/ui/nowhere/{name}' }],
    }),
    expected: [
      [
        'schemas/screens/planted-endpoint.screen.json#/rowActions/0',
        'POST /ui/nowhere/{name} is not a call the server serves',
      ],
    ],
  },
  {
    path: 'screens/planted-route.screen.json',
    content: screen('planted-route', { route: '/admin/management/users/new' }),
    expected: [
      ['schemas/screens/planted-route.screen.json#/route', "collides with screen 'users'"],
      ['schemas/screens/users.screen.json#/route', "collides with screen 'planted-route'"],
    ],
  },
  {
    path: 'screens/planted-field.screen.json',
    content: screen('planted-field', { colour: 'red' }),
    expected: [
      [
        'schemas/screens/planted-field.screen.json#/colour',
        "'colour' is not a descriptor field the meta-schema knows",
      ],
    ],
  },
  {
    path: 'screens/planted-store.screen.json',
    content: screen('planted-store', {
      store: { kind: 'collection', hooks: 'no-such-hooks' },
      api: {
        list: { method: 'GET', path: '/ui/planted' },
        get: { method: 'GET', path: '/ui/planted/{name}' },
        create: { method: 'POST', path: '/ui/planted' },
        update: { method: 'PUT', path: '/ui/planted/{name}' },
        deleteMany: { method: 'POST', path: '/ui/planted/delete', bodyKey: 'names' },
      },
    }),
    expected: [
      [
        'schemas/screens/planted-store.screen.json#/store/hooks',
        "'no-such-hooks' names no server hooks",
      ],
      ['schemas/screens/planted-store.screen.json#/entity', 'has no examples'],
    ],
  },
  {
    path: 'screens/planted-page.screen.json',
    content: {
      id: 'planted-page',
      title: 'Planted page',
      route: '/admin/configuration/planted-page',
      permission: 'admin',
      component: 'search',
      pages: [{ path: '/admin/management/groups/:group/edit', view: 'edit' }],
    },
    expected: [
      ['schemas/screens/planted-page.screen.json#/route', "collides with screen 'groups'"],
      ['schemas/screens/groups.screen.json#/route', "collides with screen 'planted-page'"],
    ],
  },
  {
    path: 'screens/planted-component.screen.json',
    content: {
      id: 'planted-component',
      title: 'Planted component',
      route: '/admin/configuration/planted-component',
      permission: 'admin',
      component: 'no-such-page',
    },
    expected: [
      [
        'schemas/screens/planted-component.screen.json#/component',
        "'no-such-page' is not a component of the console's screen registry",
      ],
    ],
  },
  {
    path: 'screens/planted-dialog.screen.json',
    content: {
      id: 'planted-dialog',
      title: 'Planted dialog',
      route: '/admin/configuration/planted-dialog',
      permission: 'admin',
      component: 'search',
      dialogs: {
        promote: {
          entity: 'planted',
          fields: ['name', 'colour'],
          uiSchema: { size: { 'ui:widget': 'textarea' }, name: { 'ui:widget': 'calendarPopup' } },
        },
        other: { entity: 'no-such-entity', fields: ['name'] },
      },
      lists: {
        versions: { columns: [{ field: 'number', header: 'Number', link: true }] },
      },
    },
    expected: [
      [
        'schemas/screens/planted-dialog.screen.json#/dialogs/promote/fields/1',
        "'colour' is not a property of entity 'planted'",
      ],
      [
        'schemas/screens/planted-dialog.screen.json#/dialogs/promote/uiSchema/size',
        "names 'size', which is not one of the dialog's fields",
      ],
      [
        'schemas/screens/planted-dialog.screen.json#/dialogs/promote/uiSchema/name/ui:widget',
        "'calendarPopup' is not a widget the console's registry has",
      ],
      [
        'schemas/screens/planted-dialog.screen.json#/dialogs/other/entity',
        "'no-such-entity' names no entity schema",
      ],
      ['schemas/screens/planted-dialog.screen.json#/lists/versions', "needs a 'key'"],
      [
        'schemas/screens/planted-dialog.screen.json#/lists/versions/columns/0/link',
        "expected 'linkTo'",
      ],
    ],
  },
  {
    path: 'screens/planted-nothing.screen.json',
    content: {
      id: 'planted-nothing',
      title: 'Planted nothing',
      route: '/admin/configuration/planted-nothing',
      permission: 'admin',
    },
    expected: [['schemas/screens/planted-nothing.screen.json#', "'component'"]],
  },
];

describe('npm run schemas:check', () => {
  it('passes the shipped schemas and descriptors', () => {
    const { status, output } = runCheck();
    expect(output).toMatch(/schemas:check: \d+ entities and \d+ screens are valid/);
    expect(status).toBe(0);
  });

  it('names the file, the pointer and what was expected for every planted mistake', () => {
    const schemas = copySchemas();
    try {
      for (const { path, content } of PLANTED) schemas.write(path, content);
      const { status, output } = runCheck(schemas.dir);
      expect(status).toBe(1);
      const lines = output.split('\n').map((line) => line.trim());
      for (const [location, words] of PLANTED.flatMap((p) => p.expected)) {
        const line = lines.find((l) => l.startsWith(`${location}: `));
        expect(line, `no line for ${location} in:\n${output}`).toBeDefined();
        expect(line).toContain(words);
      }
      // Nothing but the planted mistakes: the shipped files stay clean.
      const reported = lines.filter((l) => l.startsWith('schemas/'));
      expect(reported).toHaveLength(PLANTED.flatMap((p) => p.expected).length);
    } finally {
      schemas.remove();
    }
  }, 90000); // a child process that starts every route: 6 s alone, over 30 s on a loaded CI machine
});

describe('what the check builds on', () => {
  let depot: TestDepot;
  beforeAll(async () => {
    depot = await startTestDepot();
    await depot.app.ready();
  });
  afterAll(() => depot?.close());

  it('learns the same routes without a database as the server registers with one', async () => {
    const withoutDatabase = await listServerRoutes(loadSchemaRegistry());
    expect(withoutDatabase).toEqual(depot.app.routeCatalog);
  });

  it('finds nothing wrong with the shipped files in process either', () => {
    const problems = checkSchemas(depot.services.schemas, { routes: depot.app.routeCatalog });
    expect(problems.map(formatProblem)).toEqual([]);
  });

  it('says when the generated descriptor type is out of date with the meta-schema', () => {
    const registry = loadSchemaRegistry();
    expect(descriptorTypeProblems(registry.screenMetaSchema)).toEqual([]);
    const changed = structuredClone(registry.screenMetaSchema);
    (changed.properties as Record<string, object>).colour = { type: 'string' };
    expect(descriptorTypeProblems(changed).map(formatProblem)).toEqual([
      'schemas/meta/screen-descriptor.generated.ts#: is out of date with schemas/meta/screen.meta.schema.json; expected what `npm run schemas:types` writes',
    ]);
  });
});
