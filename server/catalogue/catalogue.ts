import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { SCHEMAS_DIR, type JsonSchema } from '../schemas/registry.ts';

/** The repository kinds a package type can be created as (spec 03 §3). */
export const REPO_KINDS = ['local', 'remote', 'virtual', 'federated', 'releaseBundles'] as const;
export type RepoKind = (typeof REPO_KINDS)[number];

/** The limited editions (license types of spec 01 §3) that restrict package types. */
export type Edition = 'OSS' | 'JCR' | 'CONAN';

export interface PackageType {
  serverEnumName: string;
  /** Lower-case id used in URLs and in a repository's `packageType`. */
  value: string;
  text: string;
  icon: string;
  repoTypes: readonly RepoKind[];
  description?: string;
  /** How the console offers the type under a limited edition; an edition not named allows it. */
  editionRestrictions?: Partial<Record<Edition, 'disabled' | 'hidden'>>;
  defaultLayout: string;
}

export interface RepoLayout {
  name: string;
  artifactPathPattern: string;
  distinctiveDescriptorPathPattern: boolean;
  /** Empty when the layout has no distinct descriptor. */
  descriptorPathPattern: string;
  folderIntegrationRevisionRegExp: string;
  fileIntegrationRevisionRegExp: string;
}

export interface Catalogue {
  packageTypes: readonly PackageType[];
  layouts: readonly RepoLayout[];
  /** The JSON Schemas of one entry of each file, for response schemas. */
  itemSchemas: { packageType: JsonSchema; layout: JsonSchema };
  packageType(value: string): PackageType | undefined;
  allowedRepoTypes(value: string): readonly RepoKind[] | undefined;
  defaultLayout(value: string): RepoLayout | undefined;
  layout(name: string): RepoLayout | undefined;
  /** The types a repository of this kind may hold, in catalogue order. */
  packageTypesFor(kind: RepoKind): PackageType[];
}

/** The repository kind a caller named, whatever its case; undefined when there is none. */
export function repoKind(name: string): RepoKind | undefined {
  return REPO_KINDS.find((kind) => kind.toLowerCase() === name.toLowerCase());
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

/** Reads a catalogue file and checks it against its meta-schema; the error names the file. */
function readValidated<T>(
  ajv: Ajv2020,
  file: string,
  metaFile: string,
): { data: T; meta: JsonSchema } {
  const meta = readJson(metaFile) as JsonSchema;
  let validate: ReturnType<Ajv2020['compile']>;
  try {
    validate = ajv.compile(meta);
  } catch (error) {
    throw new Error(`${metaFile}: ${(error as Error).message}`);
  }
  const data = readJson(file);
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map(
      (issue) => `${issue.instancePath || '(root)'} ${issue.message}`,
    );
    throw new Error(`${file}: ${problems.join('; ')}`);
  }
  return { data: data as T, meta };
}

function duplicate(values: string[]): string | undefined {
  return values.find((value, index) => values.indexOf(value) !== index);
}

/** What a meta-schema cannot say: unique ids, layouts that exist, regexps that compile. */
function crossCheck(types: PackageType[], layouts: RepoLayout[], files: Record<string, string>) {
  const problems: [string, string][] = [];
  const twiceValue = duplicate(types.map((t) => t.value));
  if (twiceValue) problems.push([files.types, `value '${twiceValue}' is used twice`]);
  const twiceEnum = duplicate(types.map((t) => t.serverEnumName));
  if (twiceEnum) problems.push([files.types, `serverEnumName '${twiceEnum}' is used twice`]);
  const twiceName = duplicate(layouts.map((l) => l.name));
  if (twiceName) problems.push([files.layouts, `layout '${twiceName}' is defined twice`]);
  const names = new Set(layouts.map((l) => l.name));
  for (const type of types.filter((t) => !names.has(t.defaultLayout))) {
    problems.push([
      files.types,
      `${type.value}: default layout '${type.defaultLayout}' is not a layout`,
    ]);
  }
  for (const layout of layouts) {
    for (const key of [
      'folderIntegrationRevisionRegExp',
      'fileIntegrationRevisionRegExp',
    ] as const) {
      try {
        new RegExp(layout[key]);
      } catch {
        problems.push([files.layouts, `${layout.name}: ${key} is not a valid regular expression`]);
      }
    }
  }
  if (problems.length > 0) {
    const [file, problem] = problems[0];
    throw new Error(`${file}: ${problem}`);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Reads `catalogue/package-types.json` and `catalogue/repo-layouts.json` under `dir`, checks
 * them against `meta/*.meta.schema.json` and against each other, and throws an error naming
 * the file and the problem: the server must not start with a catalogue it cannot trust.
 */
export function loadCatalogue(dir = SCHEMAS_DIR): Catalogue {
  const files = {
    types: join(dir, 'catalogue', 'package-types.json'),
    layouts: join(dir, 'catalogue', 'repo-layouts.json'),
  };
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const types = readValidated<PackageType[]>(
    ajv,
    files.types,
    join(dir, 'meta', 'package-types.meta.schema.json'),
  );
  const layouts = readValidated<RepoLayout[]>(
    ajv,
    files.layouts,
    join(dir, 'meta', 'repo-layouts.meta.schema.json'),
  );
  crossCheck(types.data, layouts.data, files);

  const packageTypes = deepFreeze(types.data);
  const layoutList = deepFreeze(layouts.data);
  const byValue = new Map(packageTypes.map((type) => [type.value, type]));
  const byName = new Map(layoutList.map((layout) => [layout.name, layout]));
  const packageType = (value: string) => byValue.get(value.toLowerCase());
  const itemSchema = (meta: JsonSchema, name: string) =>
    (meta.$defs as Record<string, JsonSchema>)[name];

  return {
    packageTypes,
    layouts: layoutList,
    itemSchemas: {
      packageType: itemSchema(types.meta, 'packageType'),
      layout: itemSchema(layouts.meta, 'layout'),
    },
    packageType,
    allowedRepoTypes: (value) => packageType(value)?.repoTypes,
    defaultLayout: (value) => {
      const type = packageType(value);
      return type && byName.get(type.defaultLayout);
    },
    layout: (name) => byName.get(name),
    packageTypesFor: (kind) => packageTypes.filter((type) => type.repoTypes.includes(kind)),
  };
}
