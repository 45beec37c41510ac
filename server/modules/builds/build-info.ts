import type { ErrorObject } from 'ajv';
import { BadRequest } from '../../errors.ts';
import { bodyValidatorOnFirstUse } from '../../schemas/ajv.ts';
import type { JsonSchema } from '../../schemas/registry.ts';
import { BUILD_MESSAGES as M } from './messages.ts';

/** The parts of a build-info document Depot reads; the rest is kept as sent. */
export interface BuildFileEntry {
  name?: string;
  id?: string;
  type?: string;
  sha1?: string;
  sha256?: string;
  md5?: string;
  scopes?: string[];
}

export interface BuildModule {
  id: string;
  type?: string;
  artifacts?: BuildFileEntry[];
  dependencies?: BuildFileEntry[];
}

export interface BuildRetention {
  count?: number;
  minimumBuildDate?: number | string;
  deleteBuildArtifacts?: boolean;
  buildNumbersNotToBeDiscarded?: string[];
}

export interface BuildInfo {
  name: string;
  number: string;
  started: string;
  project?: string;
  modules?: BuildModule[];
  properties?: Record<string, string>;
  buildRetention?: BuildRetention;
  statuses?: unknown[];
  [field: string]: unknown;
}

/** `modules/0/artifacts/2/sha1` → `modules[0].artifacts[2].sha1`: how a person reads it. */
function fieldOf(error: ErrorObject): string {
  const parts = error.instancePath.split('/').filter(Boolean);
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  return parts.reduce(
    (field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : field ? `${field}.${part}` : part),
    '',
  );
}

function messageOf(error: ErrorObject, field: string): string {
  switch (error.keyword) {
    case 'required':
      return M.required(field);
    case 'type':
      return M.wrongType(field, String(error.params.type));
    case 'pattern':
      if (/sha1|sha256|md5/.test(field)) return M.badChecksum(field);
      return field === 'name' ? M.badName : M.badCharacters(field);
    case 'maxLength':
      return M.tooLong(field, Number(error.params.limit));
    case 'minLength':
      return M.required(field);
    case 'maxItems':
      return M.tooMany(field, Number(error.params.limit));
    default:
      return M.invalid(field);
  }
}

/** The first violation that names the deepest field: the one a person can act on. */
function firstViolation(errors: ErrorObject[]): ErrorObject {
  const concrete = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'allOf');
  return concrete[0] ?? errors[0]!;
}

/** Checks documents against `schemas/entities/build-info.schema.json`. */
export function createBuildInfoValidator(schema: JsonSchema) {
  const validator = bodyValidatorOnFirstUse(() => ({ ...schema, $id: 'build-info-body' }));
  return (body: unknown): BuildInfo => {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new BadRequest(M.notAnObject);
    const validate = validator();
    if (!validate(body)) {
      const error = firstViolation(validate.errors ?? []);
      const field = fieldOf(error);
      throw new BadRequest(messageOf(error, field), field);
    }
    const info = body as BuildInfo;
    startedAt(info.started);
    return info;
  };
}

/**
 * The build's start as a time. Build-info writes `yyyy-MM-dd'T'HH:mm:ss.SSSZ`, an offset
 * without a colon (`+0300`), which Date does not read on its own.
 */
export function startedAt(started: string): Date {
  const normalized = started.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const time = new Date(normalized);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(started) || Number.isNaN(time.getTime()))
    throw new BadRequest(M.badStarted(started), 'started');
  return time;
}

/** Where a build's file lives in its repository, as Artifactory lays it out. */
export const buildFilePath = (name: string, number: string, started: Date) =>
  `${name}/${number}-${started.getTime()}.json`;

/** The package type of the repositories that hold build-info documents. */
export const BUILD_INFO_PACKAGE_TYPE = 'buildinfo';

/** The build-info repository of a project, or the default one. */
export const DEFAULT_BUILD_REPOSITORY = 'artifactory-build-info';
export const buildRepositoryOf = (projectKey: string | undefined) =>
  projectKey ? `${projectKey}-build-info` : DEFAULT_BUILD_REPOSITORY;
