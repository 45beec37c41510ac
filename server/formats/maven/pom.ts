import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { BadRequest } from '../../errors.ts';

export interface PomCoordinates {
  groupId: string;
  artifactId: string;
  version: string;
  packaging: string;
  name?: string;
  description?: string;
  /** `<licenses><license><name>`: what the package browser shows and filters by. */
  licenses?: { name: string }[];
  /** `<dependencies><dependency>`: the package browser's Dependencies tab. */
  dependencies?: PomDependency[];
}

export interface PomDependency {
  groupId: string;
  artifactId: string;
  /** As written: a version, a range or a `${property}` the POM does not resolve here. */
  version?: string;
  scope?: string;
  optional?: boolean;
}

// A POM's coordinates are a few elements deep; its size is bounded by the caller.
const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  processEntities: false,
});

/** The parsed POM; what the parser refuses though well-formed (nesting past its limit) is a 400. */
function parsed(content: string): { project?: Record<string, unknown> } {
  try {
    return parser.parse(content) as { project?: Record<string, unknown> };
  } catch (error) {
    throw new BadRequest(`The POM could not be read: ${(error as Error).message}`);
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : undefined);

/**
 * The coordinates of a POM: its own groupId and version, or its parent's when it inherits
 * them. A POM that is not well-formed XML, or has no `<project>`, is refused.
 */
export function readPom(content: string): PomCoordinates {
  const valid = XMLValidator.validate(content);
  if (valid !== true)
    throw new BadRequest(
      `The POM is not valid XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`,
    );
  const project = parsed(content).project;
  if (!project || typeof project !== 'object')
    throw new BadRequest('The POM has no <project> element');
  const parent = (project.parent ?? {}) as Record<string, unknown>;
  const groupId = text(project.groupId) ?? text(parent.groupId);
  const artifactId = text(project.artifactId);
  const version = text(project.version) ?? text(parent.version);
  if (!groupId || !artifactId || !version)
    throw new BadRequest('The POM does not give a groupId, an artifactId and a version');
  return {
    groupId,
    artifactId,
    version,
    packaging: text(project.packaging) ?? 'jar',
    name: text(project.name),
    description: text(project.description),
    ...licensesOf(project),
    ...dependenciesOf(project),
  };
}

/** One element parses as an object, several as a list. */
const listOf = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value];

/** The `<dependencies>` of the project itself (not `<dependencyManagement>`'s). */
function dependenciesOf(project: Record<string, unknown>): Pick<PomCoordinates, 'dependencies'> {
  const listed = (project.dependencies as { dependency?: unknown } | undefined)?.dependency;
  const dependencies = listOf(listed).flatMap((entry): PomDependency[] => {
    const fields = (entry ?? {}) as Record<string, unknown>;
    const groupId = text(fields.groupId);
    const artifactId = text(fields.artifactId);
    if (!groupId || !artifactId) return [];
    return [
      {
        groupId,
        artifactId,
        ...(text(fields.version) ? { version: text(fields.version) } : {}),
        ...(text(fields.scope) ? { scope: text(fields.scope) } : {}),
        ...(text(fields.optional) === 'true' ? { optional: true } : {}),
      },
    ];
  });
  return dependencies.length > 0 ? { dependencies } : {};
}

/** The names in `<licenses>`: one `<license>` parses as an object, several as a list. */
function licensesOf(project: Record<string, unknown>): Pick<PomCoordinates, 'licenses'> {
  const listed = (project.licenses as { license?: unknown } | undefined)?.license;
  const entries = listOf(listed);
  const names = entries
    .map((entry) => text((entry as Record<string, unknown>)?.name))
    .filter((name): name is string => Boolean(name));
  return names.length > 0 ? { licenses: names.map((name) => ({ name })) } : {};
}
