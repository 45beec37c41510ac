import { BadRequest } from '../../errors.ts';
import {
  all,
  any,
  field,
  FILES_ONLY,
  type Criterion,
  type ItemQuery,
  type SearchScope,
} from './criteria.ts';
import { SEARCH_MESSAGES as M } from './messages.ts';
import { hasWildcard, isWildcardOnly, withTrailingWildcard } from './wildcards.ts';

/**
 * The console's and the scripted API's search types as item queries (spec 02 §5 rules):
 * each checks its input and says what is wrong in the spec's words where it has them.
 */

const BY_NAME = [{ field: 'name', direction: 'asc' }] as const;

function files(where: Criterion, scope: SearchScope = 'artifacts'): ItemQuery {
  return { where: all(where, FILES_ONLY), sort: [...BY_NAME], scope };
}

/** A name term: trimmed, not only wildcards, and a trailing `*` when asked (quick, trash). */
export function nameTerm(term: string | undefined, trailingWildcard: boolean): string {
  const trimmed = (term ?? '').trim();
  if (trimmed === '') throw new BadRequest(M.termRequired, 'query');
  if (isWildcardOnly(trimmed)) throw new BadRequest(M.wildcardOnly, 'query');
  return trailingWildcard ? withTrailingWildcard(trimmed) : trimmed;
}

/** Names compare case-insensitively in the console's searches, as users expect. */
const nameMatches = (term: string) => field('name', '$match', term, true);

/**
 * A Docker tag's manifest file by its image (the whole name, or its last component) or its
 * tag, starting with the term: the images' files are named by digest, not by image.
 */
function dockerTagMatches(term: string): Criterion {
  const image = term.toLowerCase(); // image names are lower case by the protocol's rules
  const property = (key: string, value: string): Criterion => ({
    kind: 'property',
    key,
    op: '$match',
    value,
  });
  return any(
    property('docker.repoName', image),
    property('docker.repoName', `*/${image}`),
    property('docker.manifest', term),
  );
}

/**
 * Quick search: files whose name starts with the term (a trailing `*` is added), and Docker
 * tags whose image or tag does (docs/docker.md, "Search and packages").
 */
export function quickQuery(term: string | undefined): ItemQuery {
  const name = nameTerm(term, true);
  return files(any(nameMatches(name), dockerTagMatches(name)));
}

/** Spec 02 §5: 40 hex digits are a SHA-1, 32 an MD5, 64 a SHA-256. */
export function checksumCriterion(checksum: string | undefined): Criterion {
  const value = (checksum ?? '').trim().toLowerCase();
  const column = { 40: 'actual_sha1', 32: 'actual_md5', 64: 'sha256' } as const;
  const kind = column[value.length as keyof typeof column];
  if (!kind) throw new BadRequest(M.invalidChecksumLength, 'checksum');
  if (!/^[0-9a-f]+$/.test(value)) throw new BadRequest(M.checksumNotHex, 'checksum');
  return field(kind, '$eq', value);
}

export const checksumQuery = (checksum: string | undefined): ItemQuery =>
  files(checksumCriterion(checksum));

/** Trash search: by name (a trailing `*` added) or by checksum, in the trash can only. */
export function trashQuery(term: string | undefined, isChecksum: boolean): ItemQuery {
  const where = isChecksum ? checksumCriterion(term) : nameMatches(nameTerm(term, true));
  return files(where, 'trash');
}

export interface PropertyKeyValues {
  key: string;
  values?: string[];
}

/**
 * Property search: every key must hold, with any of its values; a value with a wildcard
 * matches, an empty list means any value. Values compare exactly otherwise.
 */
export function propertyQuery(pairs: readonly PropertyKeyValues[]): ItemQuery {
  const wanted = pairs.filter((pair) => pair.key.trim() !== '');
  if (wanted.length === 0) throw new BadRequest(M.propertyRequired, 'propertyKeyValues');
  const perKey = wanted.map(({ key, values = [] }) => {
    const given = values.map((value) => value.trim()).filter(Boolean);
    if (given.length === 0)
      return { kind: 'property', key: key.trim(), op: '$match', value: '*' } as const;
    return any(
      ...given.map(
        (value) =>
          ({
            kind: 'property',
            key: key.trim(),
            op: hasWildcard(value) ? '$match' : '$eq',
            value,
          }) as const,
      ),
    );
  });
  return { where: all(...perKey), sort: [...BY_NAME], scope: 'artifacts' };
}

export interface Gavc {
  groupID?: string;
  artifactID?: string;
  version?: string;
  classifier?: string;
}

/**
 * GAVC search over the Maven layout: `group/as/folders/artifact/version/` holds
 * `artifact-version[-classifier].ext`. A missing coordinate matches any; wildcards work in
 * each. Snapshot files carry a timestamp instead of `-SNAPSHOT`, so the version is matched
 * on the folder, and the file name only by artifact and classifier.
 */
export function gavcQuery(gavc: Gavc): ItemQuery {
  const clean = (value: string | undefined) => value?.trim() || undefined;
  const group = clean(gavc.groupID);
  const artifact = clean(gavc.artifactID);
  const version = clean(gavc.version);
  const classifier = clean(gavc.classifier);
  if (!group && !artifact && !version && !classifier)
    throw new BadRequest(M.gavcRequired, 'groupID');
  const folder = [group?.replaceAll('.', '/') ?? '*', artifact ?? '*', version ?? '*'].join('/');
  const name = `${artifact ?? '*'}-*${classifier ? `-${classifier}.*` : ''}`;
  return files(
    all(
      field('path', '$match', folder),
      field('name', '$match', name),
      // Metadata sits beside the artifacts but is not one of the version's files.
      field('name', '$nmatch', 'maven-metadata.xml*'),
    ),
  );
}
