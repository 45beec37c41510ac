import { BadRequest } from '../../errors.ts';
import { MAX_PAGE } from './service.ts';

/**
 * `/mds/packages`' other request shape (spec 02 §7: "limit, sort_by, sort_type and query
 * fields lowercase_name, description, tags, version, checksum, scope, repos, package_type"),
 * as scripts and the package search send it. It is turned into the GraphQL query the
 * console sends, so both shapes are answered alike (docs/package-browser.md).
 */
export interface PackageSearchBody {
  limit?: unknown;
  sort_by?: unknown;
  sort_type?: unknown;
  query?: Record<string, unknown>;
}

const QUERY_FIELDS = [
  'lowercase_name',
  'description',
  'tags',
  'version',
  'checksum',
  'scope',
  'repos',
  'package_type',
] as const;
const SORT_FIELDS: Record<string, 'NAME' | 'CREATED' | 'MODIFIED'> = {
  name: 'NAME',
  lowercase_name: 'NAME',
  created: 'CREATED',
  modified: 'MODIFIED',
  last_modified: 'MODIFIED',
};
/** Spec 02 §5: these directions, in any letter case; ascending by default. */
const DIRECTIONS: Record<string, 'ASC' | 'DESC'> = {
  asc: 'ASC',
  ascend: 'ASC',
  desc: 'DESC',
  descend: 'DESC',
};
/** Spec 02 §5: "Debian maps to deb, and gems to rubygems." */
const PACKAGE_TYPE_ALIASES: Record<string, string> = { debian: 'deb', gems: 'rubygems' };
/** Spec 02 §5: a checksum's length says which it is. */
const CHECKSUM_LENGTHS = new Set([32, 40, 64]);

export const PACKAGES_QUERY = `query PackageSearch($filter: PackageFilter, $first: Int, $orderBy: PackageOrder) {
  packages(filter: $filter, first: $first, orderBy: $orderBy) {
    edges {
      node {
        id name packageType description created modified versionsCount latestVersion
        stats { downloads } tags licenses { name source }
      }
      cursor
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const isPackageSearchBody = (body: unknown): body is PackageSearchBody =>
  typeof body === 'object' &&
  body !== null &&
  !('graphQL' in body) &&
  ['limit', 'sort_by', 'sort_type', 'query'].some((key) => key in body);

/** A text value, or undefined when empty: "Empty values are ignored" (spec 02 §5). */
function text(field: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new BadRequest(`${field} must be text`);
  return value.trim() || undefined;
}

function list(field: string, value: unknown): string[] | undefined {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const texts = values.map((item) => text(field, item)).filter((item) => item !== undefined);
  return texts.length > 0 ? texts : undefined;
}

/** "Package search values get a trailing *" (spec 02 §5): a prefix unless it has its own. */
const withTrailingStar = (value: string | undefined) =>
  value === undefined || value.endsWith('*') ? value : `${value}*`;

function checksumOf(value: unknown): string | undefined {
  const checksum = text('query.checksum', value);
  if (checksum !== undefined && !CHECKSUM_LENGTHS.has(checksum.length))
    throw new BadRequest('Invalid Checksum Length');
  return checksum;
}

export function packageSearchVariables(body: PackageSearchBody) {
  const query = body.query ?? {};
  if (typeof query !== 'object' || Array.isArray(query))
    throw new BadRequest('query must be an object of search fields');
  const unknown = Object.keys(query).filter(
    (key) => !(QUERY_FIELDS as readonly string[]).includes(key),
  );
  if (unknown.length > 0)
    throw new BadRequest(
      `Unknown search field(s): ${unknown.join(', ')}; known: ${QUERY_FIELDS.join(', ')}`,
    );
  const sortBy = text('sort_by', body.sort_by)?.toLowerCase() ?? 'name';
  const field = SORT_FIELDS[sortBy];
  if (!field) throw new BadRequest(`sort_by must be one of ${Object.keys(SORT_FIELDS).join(', ')}`);
  const sortType = text('sort_type', body.sort_type)?.toLowerCase() ?? 'asc';
  const direction = DIRECTIONS[sortType];
  if (!direction) throw new BadRequest('sort_type must be asc, desc, ascend or descend');
  const { limit } = body;
  if (
    limit !== undefined &&
    (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_PAGE)
  )
    throw new BadRequest(`limit must be a whole number between 1 and ${MAX_PAGE}`);
  return {
    first: limit as number | undefined,
    orderBy: { field, direction },
    filter: {
      name: withTrailingStar(text('query.lowercase_name', query.lowercase_name)),
      description: withTrailingStar(text('query.description', query.description)),
      version: withTrailingStar(text('query.version', query.version)),
      scope: text('query.scope', query.scope),
      tags: list('query.tags', query.tags),
      repos: list('query.repos', query.repos),
      checksum: checksumOf(query.checksum),
      packageTypeIn: list('query.package_type', query.package_type)?.map(
        (type) => PACKAGE_TYPE_ALIASES[type.toLowerCase()] ?? type.toLowerCase(),
      ),
    },
  };
}
