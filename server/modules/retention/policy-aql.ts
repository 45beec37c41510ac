import { BadRequest } from '../../errors.ts';
import type { AqlLimits } from '../search/aql-limits.ts';
import { parseAql } from '../search/aql-parser.ts';
import type { Criterion } from '../search/criteria.ts';
import { RETENTION_MESSAGES as M } from './messages.ts';

/** A retention policy as the entity schema stores it (schemas/entities/retention-policy). */
export interface RetentionPolicy {
  key: string;
  description?: string;
  enabled?: boolean;
  cronExp: string;
  durationInMinutes?: number;
  action?: 'archive' | 'delete';
  policyBase?: 'FORM' | 'AQL';
  includeOperator?: 'and' | 'or';
  repositories?: string[];
  paths?: string[];
  names?: string[];
  properties?: string[];
  excludeRepositories?: string[];
  excludePaths?: string[];
  excludeNames?: string[];
  excludeProperties?: string[];
  createdBeforeMonths?: number;
  downloadedBeforeMonths?: number;
  aqlQuery?: string;
}

type AqlObject = Record<string, unknown>;

/** `key=value` or `key` (any value) as the property name and a value pattern. */
function propertyCriterion(value: string): [string, string] {
  const at = value.indexOf('=');
  const key = (at < 0 ? value : value.slice(0, at)).trim();
  if (key === '') throw new BadRequest(M.propertyPattern(value), 'properties');
  return [`@${key}`, at < 0 ? '*' : value.slice(at + 1)];
}

const anyOf = (parts: AqlObject[]): AqlObject | undefined =>
  parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { $or: parts };

/** The include criteria of a form, one per kind with values: each kind matches any value. */
function includes(policy: RetentionPolicy): AqlObject[] {
  return [
    anyOf((policy.repositories ?? []).map((repo) => ({ repo }))),
    anyOf((policy.paths ?? []).map((path) => ({ path: { $match: path } }))),
    anyOf((policy.names ?? []).map((name) => ({ name: { $match: name } }))),
    anyOf(
      (policy.properties ?? []).map((value) => {
        const [key, pattern] = propertyCriterion(value);
        return { [key]: { $match: pattern } };
      }),
    ),
  ].filter((part): part is AqlObject => part !== undefined);
}

/** The exclusions of a form: an item matching any of them is never chosen. */
function excludes(policy: RetentionPolicy): AqlObject[] {
  return [
    ...(policy.excludeRepositories ?? []).map((repo) => ({ repo: { $ne: repo } })),
    ...(policy.excludePaths ?? []).map((path) => ({ path: { $nmatch: path } })),
    ...(policy.excludeNames ?? []).map((name) => ({ name: { $nmatch: name } })),
    ...(policy.excludeProperties ?? []).map((value) => {
      const [key, pattern] = propertyCriterion(value);
      return { [key]: { $nmatch: pattern } };
    }),
  ];
}

function ages(policy: RetentionPolicy): AqlObject[] {
  const parts: AqlObject[] = [];
  if (policy.createdBeforeMonths)
    parts.push({ created: { $before: `${policy.createdBeforeMonths}mo` } });
  if (policy.downloadedBeforeMonths)
    parts.push({ 'stat.downloaded': { $before: `${policy.downloadedBeforeMonths}mo` } });
  return parts;
}

/**
 * The AQL of a form policy (`convertToAql`): the include criteria joined by the policy's
 * operator, and with every exclusion and age limit. A form with no criterion at all would
 * choose every file of the instance; it is refused instead.
 */
export function convertToAql(policy: RetentionPolicy): string {
  const included = includes(policy);
  const joined =
    included.length <= 1
      ? included
      : [policy.includeOperator === 'or' ? { $or: included } : { $and: included }];
  const parts = [...joined, ...excludes(policy), ...ages(policy)];
  if (parts.length === 0) throw new BadRequest(M.noCriteria, 'repositories');
  const criteria = parts.length === 1 ? parts[0] : { $and: parts };
  return `items.find(${JSON.stringify(criteria)})`;
}

/** The AQL a policy runs: its own query, or its form's. */
export function policyAql(policy: RetentionPolicy): string {
  if (policy.policyBase !== 'AQL') return convertToAql(policy);
  const query = (policy.aqlQuery ?? '').trim();
  if (query === '') throw new BadRequest(M.aqlEmpty, 'aqlQuery');
  return query;
}

/** What a policy chooses, as search criteria; a query that does not parse is a 400. */
export function policyCriterion(policy: RetentionPolicy, limits: AqlLimits): Criterion {
  return parseAql(policyAql(policy), limits).where;
}
