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
  // Artifactory's ids for Docker V2 images; the image is the package, a tag its version.
  docker: [
    field('dockerV2Image', 'Image Name', 'name'),
    field('dockerV2Tag', 'Image Tag', 'version'),
    REPO,
  ],
  ...Object.fromEntries([...MAVEN_TYPES].map((type) => [type, MAVEN_FIELDS])),
};

/** The ids of a type's name, version and scope fields (Docker's are Artifactory's own). */
export function searchFieldIds(type: string) {
  if (type === 'docker') return { name: 'dockerV2Image', version: 'dockerV2Tag', scope: '' };
  return { name: `${type}Name`, version: `${type}Version`, scope: `${type}Scope` };
}

/** Spec 02 §3 aliases: the names a query string may use for a package type. */
const ALIASES: Record<string, string> = { gav: 'maven' };

export const packageTypeOf = (name: string) => ALIASES[name.toLowerCase()] ?? name.toLowerCase();
export const isMavenLike = (type: string) => MAVEN_TYPES.has(type);
