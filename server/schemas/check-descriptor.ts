import type { RouteEntry } from '../http/identity.ts';
import { CONSOLE_API_PREFIX, toRoutePattern } from '../modules/entities/descriptors.ts';
import { below, type SchemaProblem } from './problems.ts';
import {
  isEntityScreen,
  isSingleDocument,
  type EntityDescriptor,
  type JsonSchema,
  type ScreenDescriptor,
} from './registry.ts';

/** What a descriptor is checked against besides its entity: the server and the console. */
export interface CheckContext {
  /** The server's routes; endpoints are not checked without them. */
  routes?: RouteEntry[];
  /** Whether the console's widget registry resolves a `ui:widget` value. */
  widgetExists?: (name: string) => boolean;
  /** Whether the console's field registry resolves a `ui:field` value. */
  fieldExists?: (name: string) => boolean;
  /** Whether the console's screen registry has a `component`. */
  componentExists?: (name: string) => boolean;
  /** The server hooks a `store.hooks` may name. */
  hookNames: string[];
}

type Report = (pointer: string, message: string) => void;
const list = (names: Iterable<string>) => [...names].map((n) => `'${n}'`).join(', ');
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A route's path with every parameter alike, so `{name}` finds `:user` too. */
const shapeOf = (url: string) => url.replace(/:[^/]+/g, ':');

/** Fields whose paths are the console's own (its pages), not calls to the server. */
const CONSOLE_ONLY_FIELDS = new Set(['uiSchema', 'pages']);

/**
 * Every call a descriptor names, wherever it names one: an object with a `path` (and a
 * `method`, GET when left out) is a call to the server, in `api`, `rowActions`,
 * `form.options` or any block a later descriptor field adds.
 */
function callsIn(
  value: unknown,
  pointer: string,
): { pointer: string; method: string; path: string }[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => callsIn(item, below(pointer, index)));
  if (!isObject(value)) return [];
  const own =
    typeof value.path === 'string' && value.path.startsWith('/')
      ? [
          {
            pointer,
            method: typeof value.method === 'string' ? value.method : 'GET',
            path: value.path,
          },
        ]
      : [];
  const nested = Object.entries(value).flatMap(([key, child]) =>
    CONSOLE_ONLY_FIELDS.has(key) ? [] : callsIn(child, below(pointer, key)),
  );
  return [...own, ...nested];
}

function checkCalls(screen: ScreenDescriptor, routes: RouteEntry[], report: Report) {
  const served = new Set(routes.map((route) => `${route.method} ${shapeOf(route.url)}`));
  // A stored entity's `api` is what the engine registers: those calls are its own.
  const named = callsIn(screen, '').filter(
    (call) => !(screen.store && call.pointer.startsWith('/api/')),
  );
  for (const call of named) {
    const url = shapeOf(CONSOLE_API_PREFIX + toRoutePattern(call.path));
    if (!served.has(`${call.method} ${url}`))
      report(
        call.pointer,
        `${call.method} ${call.path} is not a call the server serves; expected a route under ${CONSOLE_API_PREFIX} (a stored entity's calls are the engine's own)`,
      );
  }
}

/** The console registry a uiSchema keyword names an entry of. */
const REGISTRY_KEYWORDS = {
  'ui:widget': { kind: 'widget', exists: 'widgetExists' },
  'ui:field': { kind: 'field', exists: 'fieldExists' },
} as const;

function checkWidgets(uiSchema: unknown, pointer: string, context: CheckContext, report: Report) {
  if (!isObject(uiSchema)) return;
  for (const [key, value] of Object.entries(uiSchema)) {
    const keyword = REGISTRY_KEYWORDS[key as keyof typeof REGISTRY_KEYWORDS];
    if (!keyword) checkWidgets(value, below(pointer, key), context, report);
    else if (typeof value === 'string' && context[keyword.exists]?.(value) === false)
      report(
        below(pointer, key),
        `'${value}' is not a ${keyword.kind} the console's registry has; expected one of its ${keyword.kind}s (src/engine/form/widgetRegistry.ts)`,
      );
  }
}

function checkForm(
  screen: EntityDescriptor,
  properties: string[],
  context: CheckContext,
  report: Report,
) {
  const { form } = screen;
  const unknownField = (field: string) =>
    `'${field}' is not a property of entity '${screen.entity}'; expected one of ${list(properties)}`;
  form.fields.forEach((field, index) => {
    if (!properties.includes(field)) report(`/form/fields/${index}`, unknownField(field));
  });
  const notAField = (field: string) =>
    `names '${field}', which is not one of form.fields (${list(form.fields)})`;
  for (const name of ['requiredOnCreate', 'readOnlyOnEdit'] as const)
    (form[name] ?? []).forEach((field, index) => {
      if (!form.fields.includes(field)) report(`/form/${name}/${index}`, notAField(field));
    });
  for (const field of Object.keys(form.options ?? {}))
    if (!form.fields.includes(field)) report(below('/form/options', field), notAField(field));
  if (form.confirm && !form.fields.includes(form.confirm.field))
    report('/form/confirm/field', notAField(form.confirm.field));
  for (const key of Object.keys(form.uiSchema ?? {}))
    if (!key.startsWith('ui:') && !form.fields.includes(key))
      report(below('/form/uiSchema', key), notAField(key));
  (form.sections ?? []).forEach((section, index) =>
    section.fields.forEach((field, at) => {
      if (!form.fields.includes(field))
        report(`/form/sections/${index}/fields/${at}`, notAField(field));
    }),
  );
  checkWidgets(form.uiSchema, '/form/uiSchema', context, report);
}

function checkStore(
  screen: EntityDescriptor,
  entity: JsonSchema,
  context: CheckContext,
  report: Report,
) {
  const store = screen.store;
  if (!store) return;
  if (store.hooks !== undefined && !context.hookNames.includes(store.hooks))
    report(
      '/store/hooks',
      `'${store.hooks}' names no server hooks; expected one of ${list(context.hookNames)} (server/modules/entities/hook-registry.ts)`,
    );
  const examples = entity.examples;
  if (!Array.isArray(examples) || examples.length === 0)
    report(
      '/entity',
      `'${screen.entity}' is stored by the engine but its schema has no examples; expected "examples" with at least one valid document (the generated contract test creates it)`,
    );
  if (isSingleDocument(screen)) return;
  const key = entity.properties?.[screen.key];
  if (key && (key.type !== 'string' || !(entity.required ?? []).includes(screen.key)))
    report(
      '/key',
      `'${screen.key}' keys stored documents, so it must be a required string property of '${screen.entity}'`,
    );
  for (const operation of ['get', 'update'] as const) {
    const path = screen.api[operation]?.path ?? '';
    if ((path.match(/\{[^}]+\}/g) ?? []).length !== 1)
      report(
        `/api/${operation}/path`,
        `'${path}' must name the document's key with one placeholder, as '/ui/things/{${screen.key}}'`,
      );
  }
}

/**
 * Mistakes in one descriptor that its meta-schema cannot see: an entity, key, column or form
 * field that does not exist, a widget or component the console does not have, a call the
 * server does not serve, hooks that do not exist.
 */
export function checkDescriptor(
  file: string,
  screen: ScreenDescriptor,
  entities: Map<string, JsonSchema>,
  context: CheckContext,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const report: Report = (pointer, message) => problems.push({ file, pointer, message });
  if (
    screen.component !== undefined &&
    context.componentExists &&
    !context.componentExists(screen.component)
  )
    report(
      '/component',
      `'${screen.component}' is not a component of the console's screen registry (src/screens/registry.ts)`,
    );
  (screen.form?.panels ?? []).forEach((panel, index) => {
    if (context.componentExists && !context.componentExists(panel))
      report(
        `/form/panels/${index}`,
        `'${panel}' is not a component of the console's screen registry (src/screens/registry.ts)`,
      );
  });
  if (context.routes) checkCalls(screen, context.routes, report);
  checkDialogs(screen, entities, context, report);
  checkLists(screen, report);
  // A bespoke screen without an entity is its component's alone.
  if (isEntityScreen(screen)) checkEntityScreen(screen, entities, context, report);
  return problems;
}

/** A bespoke screen's dialogs: their entities exist, their fields and uiSchema name properties. */
function checkDialogs(
  screen: ScreenDescriptor,
  entities: Map<string, JsonSchema>,
  context: CheckContext,
  report: Report,
) {
  for (const [id, dialog] of Object.entries(screen.dialogs ?? {})) {
    const at = below('/dialogs', id);
    const entity = entities.get(dialog.entity);
    if (!entity) {
      report(
        `${at}/entity`,
        `'${dialog.entity}' names no entity schema; expected one of ${list(entities.keys())}`,
      );
      continue;
    }
    const properties = Object.keys(entity.properties ?? {});
    dialog.fields.forEach((field, index) => {
      if (!properties.includes(field))
        report(
          `${at}/fields/${index}`,
          `'${field}' is not a property of entity '${dialog.entity}'; expected one of ${list(properties)}`,
        );
    });
    for (const key of Object.keys(dialog.uiSchema ?? {}))
      if (!key.startsWith('ui:') && !dialog.fields.includes(key))
        report(
          below(`${at}/uiSchema`, key),
          `names '${key}', which is not one of the dialog's fields (${list(dialog.fields)})`,
        );
    checkWidgets(dialog.uiSchema, `${at}/uiSchema`, context, report);
  }
}

/**
 * A bespoke screen's grids: each names the field that keys its rows, and its links go to a
 * page of their own (`linkTo`), since such a row has no edit page for `link` to open.
 */
function checkLists(screen: ScreenDescriptor, report: Report) {
  for (const [id, grid] of Object.entries(screen.lists ?? {})) {
    const at = below('/lists', id);
    if (!grid.key) report(at, "needs a 'key', the field that names a row");
    grid.columns.forEach((column, index) => {
      if (column.link)
        report(
          `${at}/columns/${index}/link`,
          "a grid of 'lists' has no edit page to link to; expected 'linkTo' with the page's path",
        );
    });
  }
}

/** An entity screen's entity, key, columns, form and store, against its entity schema. */
function checkEntityScreen(
  screen: EntityDescriptor,
  entities: Map<string, JsonSchema>,
  context: CheckContext,
  report: Report,
) {
  const entity = entities.get(screen.entity);
  if (!entity) {
    report(
      '/entity',
      `'${screen.entity}' names no entity schema; expected one of ${list(entities.keys())}`,
    );
    return;
  }
  const properties = Object.keys(entity.properties ?? {});
  if (!isSingleDocument(screen)) {
    if (!properties.includes(screen.key))
      report(
        '/key',
        `'${screen.key}' is not a property of entity '${screen.entity}'; expected one of ${list(properties)}`,
      );
    screen.list.columns.forEach((column, index) => {
      // A feature's cell shows what the rows do not hold (src/screens/registry.test.ts
      // checks that the console has it): its field is only the column's id.
      if (!column.cell && !properties.includes(column.field))
        report(
          `/list/columns/${index}/field`,
          `'${column.field}' is not a property of entity '${screen.entity}'; expected one of ${list(properties)}`,
        );
    });
  }
  checkForm(screen, properties, context, report);
  checkStore(screen, entity, context, report);
}
