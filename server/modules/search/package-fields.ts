import { MAVEN_TYPES } from '../../formats/maven/layout.ts';

/** Spec 02 §3: a package search field, as the console lists it. */
export interface PackageSearchField {
  id: string;
  displayName: string;
  allowedComparators: string[];
  default: boolean;
  /** The key of the field in the results query string. */
  uiSearchKey: string;
}

const field = (
  id: string,
  displayName: string,
  uiSearchKey: string,
  isDefault = true,
): PackageSearchField => ({
  id,
  displayName,
  allowedComparators: ['equals', 'matches'],
  default: isDefault,
  uiSearchKey,
});

const REPO = field('repo', 'Repository', 'repo');
const MAVEN_FIELDS = [
  field('groupID', 'Group ID', 'name'),
  field('artifactID', 'Artifact ID', 'artifact'),
  field('version', 'Version', 'version'),
  field('classifier', 'Classifier', 'classifier', false),
  REPO,
];

/** The package types Depot indexes, with the fields each is searched by. */
export const PACKAGE_SEARCH_FIELDS: Record<string, PackageSearchField[]> = {
  npm: [
    field('npmName', 'Package Name', 'name'),
    field('npmVersion', 'Version', 'version'),
    field('npmScope', 'Scope', 'scope', false),
    REPO,
  ],
  pypi: [
    field('pypiName', 'Package Name', 'name'),
    field('pypiVersion', 'Version', 'version'),
    REPO,
  ],
  ...Object.fromEntries([...MAVEN_TYPES].map((type) => [type, MAVEN_FIELDS])),
};

/** Spec 02 §3 aliases: the names a query string may use for a package type. */
const ALIASES: Record<string, string> = { gav: 'maven' };

export const packageTypeOf = (name: string) => ALIASES[name.toLowerCase()] ?? name.toLowerCase();
export const isMavenLike = (type: string) => MAVEN_TYPES.has(type);
