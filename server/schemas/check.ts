import Ajv2020 from 'ajv/dist/2020.js';
import addErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import type { RouteEntry } from '../http/identity.ts';
import {
  isEntityScreen,
  type AnyScreen,
  type SchemaRegistry,
  type ScreenDescriptor,
} from './registry.ts';

/** Where the console's calls live on the server. */
export const CONSOLE_API_PREFIX = '/ui/api/v1';

function strictAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  addFormats.default(ajv);
  addErrors.default(ajv);
  ajv.addKeyword('x-display');
  return ajv;
}

const toRoutePattern = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

function checkDescriptor(
  screen: ScreenDescriptor,
  registry: SchemaRegistry,
  routes: RouteEntry[] | undefined,
): string[] {
  const problems: string[] = [];
  const where = `screen '${screen.id}'`;
  const entity = registry.entities.get(screen.entity);
  if (!entity) return [`${where}: entity '${screen.entity}' does not exist`];
  const properties = entity.properties ?? {};
  const has = (field: string) => field in properties;

  if (!has(screen.key))
    problems.push(`${where}: key '${screen.key}' is not a property of '${screen.entity}'`);
  for (const column of screen.list.columns) {
    if (!has(column.field))
      problems.push(`${where}: column '${column.field}' is not a property of '${screen.entity}'`);
  }
  const { form } = screen;
  for (const field of form.fields) {
    if (!has(field))
      problems.push(`${where}: form field '${field}' is not a property of '${screen.entity}'`);
  }
  const formLists: [string, string[] | undefined][] = [
    ['requiredOnCreate', form.requiredOnCreate],
    ['readOnlyOnEdit', form.readOnlyOnEdit],
    ['options', Object.keys((form.options as object | undefined) ?? {})],
    ['confirm', form.confirm ? [(form.confirm as { field: string }).field] : []],
  ];
  for (const [name, fields] of formLists) {
    for (const field of fields ?? []) {
      if (!form.fields.includes(field))
        problems.push(`${where}: form.${name} names '${field}', which is not a form field`);
    }
  }
  if (routes) {
    const calls = [
      ...Object.entries(screen.api).map(([name, call]) => ({ name: `api.${name}`, ...call })),
      ...(screen.rowActions ?? []).map((action) => ({
        name: `rowActions.${action.id}`,
        ...action,
      })),
      ...Object.entries((form.options as Record<string, { path: string }>) ?? {}).map(
        ([field, o]) => ({
          name: `form.options.${field}`,
          method: 'GET',
          path: o.path,
        }),
      ),
    ];
    for (const call of calls) {
      const url = CONSOLE_API_PREFIX + toRoutePattern(call.path);
      const exists = routes.some((r) => r.method === call.method && r.url === url);
      if (!exists)
        problems.push(`${where}: ${call.name} ${call.method} ${call.path} is not a server route`);
    }
  }
  return problems;
}

/**
 * Everything `npm run schemas:check` verifies: entity schemas compile in strict mode,
 * descriptors satisfy the meta-schema, their fields exist in the entity, and (given the
 * server's route catalog) every call they name exists on the server.
 */
export function checkSchemas(registry: SchemaRegistry, routes?: RouteEntry[]): string[] {
  const problems: string[] = [];
  const ajv = strictAjv();
  for (const [id, schema] of registry.entities) {
    try {
      ajv.compile({ ...schema, $id: `entity:${id}` });
    } catch (error) {
      problems.push(`entity '${id}': ${(error as Error).message}`);
    }
  }
  const validateDescriptor = ajv.compile(registry.screenMetaSchema);
  for (const screen of registry.screens.values()) {
    if (!validateDescriptor(screen)) {
      for (const issue of validateDescriptor.errors ?? []) {
        problems.push(`screen '${screen.id}'${issue.instancePath}: ${issue.message}`);
      }
      continue;
    }
    // A bespoke screen has no entity: its component is the console's to resolve.
    if (isEntityScreen(screen)) problems.push(...checkDescriptor(screen, registry, routes));
  }
  const routesSeen = new Map<string, string>();
  for (const screen of registry.screens.values()) {
    for (const path of screenPaths(screen)) {
      const shape = path.replace(/:[^/]+/g, ':');
      const other = routesSeen.get(shape);
      if (other) problems.push(`screen '${screen.id}': route ${path} is also used by '${other}'`);
      routesSeen.set(shape, screen.id);
    }
  }
  return problems;
}

/** Every path a screen answers in the console: its route, and a bespoke screen's pages. */
function screenPaths(screen: AnyScreen): string[] {
  return [screen.route, ...(screen.pages ?? []).map((page) => page.path)];
}
