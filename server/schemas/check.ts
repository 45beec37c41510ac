import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { withDepotEmailFormat } from './email-format.ts';
import { ENTITY_HOOKS } from '../modules/entities/hook-registry.ts';
import { checkDescriptor, type CheckContext } from './check-descriptor.ts';
import { checkEntitySchema, describeAjvError } from './check-entity.ts';
import { below, type SchemaProblem } from './problems.ts';
import { isEntityScreen, type SchemaRegistry, type ScreenDescriptor } from './registry.ts';
import { pagesOf, routesCollide } from './route-overlap.ts';

/**
 * Ajv in strict mode, for the schemas themselves. `errorMessage` is known as a keyword (its
 * keys are checked by check-entity.ts) rather than compiled by ajv-errors: the check never
 * validates a body, and ajv-errors' code doubled the compile time.
 */
function strictAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, verbose: true });
  withDepotEmailFormat(addFormats.default(ajv));
  ajv.addKeyword('errorMessage');
  return ajv;
}

/**
 * Ajv for `default` and `examples` values: the first error is enough, nothing strict, and
 * no check of the schema itself (the strict Ajv did that), which would compile the 2020-12
 * meta-schema a second time.
 */
function valuesAjv() {
  const ajv = new Ajv2020({ strict: false, validateSchema: false });
  withDepotEmailFormat(addFormats.default(ajv));
  ajv.addKeyword('errorMessage');
  return ajv;
}

/** The meta-schema of descriptors, compiled once per check. */
const compiledMeta = new WeakMap<object, ReturnType<Ajv2020['compile']>>();
function descriptorValidator(registry: SchemaRegistry, ajv: Ajv2020 = strictAjv()) {
  let validate = compiledMeta.get(registry.screenMetaSchema);
  if (!validate) {
    validate = ajv.compile(registry.screenMetaSchema);
    compiledMeta.set(registry.screenMetaSchema, validate);
  }
  return validate;
}

/** A descriptor's meta-schema errors, each at its field, naming the fields it knows. */
function metaProblems(file: string, errors: Ajv2020['errors']): SchemaProblem[] {
  return (errors ?? [])
    .filter((error) => error.keyword !== 'if')
    .map((error) => {
      if (error.keyword !== 'additionalProperties')
        return { file, pointer: error.instancePath, message: describeAjvError(error) };
      const field = String((error.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {});
      return {
        file,
        pointer: below(error.instancePath, field),
        message: `'${field}' is not a descriptor field the meta-schema knows; expected one of ${known.map((k) => `'${k}'`).join(', ')}`,
      };
    });
}

/** Screens whose pages match the same path: both files are told, bespoke and engine alike. */
function collisions(registry: SchemaRegistry): SchemaProblem[] {
  const screens = [...registry.screens.values()];
  const fileOf = (screen: ScreenDescriptor) => registry.files.get(`screen:${screen.id}`)!;
  const problems: SchemaProblem[] = [];
  screens.forEach((screen, index) => {
    for (const other of screens.slice(0, index)) {
      const clash = pagesOf(screen).find((page) =>
        pagesOf(other).some((theirs) => routesCollide(page, theirs)),
      );
      if (!clash) continue;
      for (const [one, another] of [
        [screen, other],
        [other, screen],
      ])
        problems.push({
          file: fileOf(one),
          pointer: '/route',
          message: `the page ${clash} collides with screen '${another.id}' (${fileOf(another)}, route ${another.route}); expected a route no other screen's pages match`,
        });
    }
  });
  return problems;
}

/** An entity stored by two descriptors would get two sets of routes over one store. */
function storedTwice(registry: SchemaRegistry): SchemaProblem[] {
  const storedBy = new Map<string, ScreenDescriptor>();
  const problems: SchemaProblem[] = [];
  for (const screen of registry.screens.values()) {
    if (!screen.store || !isEntityScreen(screen)) continue;
    const first = storedBy.get(screen.entity);
    if (first)
      problems.push({
        file: registry.files.get(`screen:${screen.id}`)!,
        pointer: '/store',
        message: `entity '${screen.entity}' is stored by screen '${first.id}' already; expected one stored descriptor per entity`,
      });
    else storedBy.set(screen.entity, screen);
  }
  return problems;
}

/**
 * Everything `npm run schemas:check` verifies beyond reading the files: each entity schema
 * (check-entity.ts), each descriptor against the meta-schema and against its entity, the
 * server and the console (check-descriptor.ts), and the screens against each other. Every
 * problem names the file, the JSON pointer and what was expected.
 */
export function checkSchemas(
  registry: SchemaRegistry,
  context: Partial<CheckContext> = {},
): SchemaProblem[] {
  const ajv = { strict: strictAjv(), values: valuesAjv() };
  const problems: SchemaProblem[] = [];
  for (const [id, schema] of registry.entities)
    problems.push(...checkEntitySchema(registry.files.get(`entity:${id}`)!, schema, ajv));
  const validateDescriptor = descriptorValidator(registry, ajv.strict);
  const full: CheckContext = { hookNames: Object.keys(ENTITY_HOOKS), ...context };
  for (const screen of registry.screens.values()) {
    const file = registry.files.get(`screen:${screen.id}`)!;
    if (!validateDescriptor(screen))
      problems.push(...metaProblems(file, validateDescriptor.errors));
    else problems.push(...checkDescriptor(file, screen, registry.entities, full));
  }
  problems.push(...collisions(registry), ...storedTwice(registry));
  return problems;
}

/**
 * The part of a registry a server could start with: descriptors that satisfy the meta-schema
 * and whose stored entity and hooks exist. schemas:check builds its route list from it, so
 * that one broken descriptor is reported rather than stopping the check.
 */
export function servableRegistry(registry: SchemaRegistry): SchemaRegistry {
  const validate = descriptorValidator(registry);
  const screens = new Map(
    [...registry.screens].filter(
      ([, screen]) =>
        validate(screen) &&
        isEntityScreen(screen) &&
        registry.entities.has(screen.entity) &&
        (screen.store?.hooks === undefined || screen.store.hooks in ENTITY_HOOKS),
    ),
  );
  return { ...registry, screens };
}
