/**
 * The package browser's texts (spec 02 §2 Package browser). Empty states and the semver note
 * are verbatim; UI and tests read them from here.
 */
export const PACKAGES_PATH = '/packages';

export const PACKAGE_MESSAGES = {
  noneFound: 'No packages found, please refine your search criteria',
  useSearch: 'Find your packages using the Search Bar',
  semverOnly: 'Only semver release versions will be shown',
  loadFailed: 'Could not load the packages',
  notYetAvailable: 'Package will be available in a few minutes',
  tryLater: 'Please try again later',
  noVersions: 'This package has no versions you may see.',
  noReadme: 'This version has no readme.',
  noProperties: 'This version has no properties.',
  /** Spec 02 §5 states the rule, not its words: Depot's. */
  termTooShort: 'Type at least 3 characters to search (* and ? do not count)',
};

export const PACKAGE_LABELS = {
  versionTabs: 'Version details',
  title: 'Packages',
  menuGroup: 'Artifactory',
  search: 'Search packages',
  searchButton: 'Search',
  packageType: 'Package type',
  allTypes: 'All types',
  name: 'Name',
  type: 'Type',
  latest: 'Latest version',
  versions: 'Versions',
  versionsCount: 'Versions',
  downloads: 'Downloads',
  modified: 'Last modified',
  description: 'Description',
  version: 'Version',
  repositories: 'Repositories',
  created: 'Created',
  size: 'Size',
  onlyReleases: 'Show release versions only',
  install: 'Install',
  installLatest: 'Install the latest version',
  installThis: 'Install this version',
  readme: 'Readme',
  properties: 'Properties',
  files: 'Files',
  layers: 'Layers',
  file: 'File',
  key: 'Key',
  values: 'Values',
  lead: 'lead file',
  back: 'All packages',
  loadMore: 'Load more',
  licenses: 'Licenses',
  versionFilters: 'Version filters',
  versionFilter: 'Version',
  repositoryFilter: 'Repository',
  anyRepository: 'Any repository',
  licenseFilter: 'License',
  anyLicense: 'Any license',
  loading: 'Loading…',
  moreFilters: 'More filters',
  scope: 'Scope',
  scopeHint: '@scope',
  tags: 'Tags',
  tagsHint: 'comma-separated',
  createdAfter: 'Created on or after',
  createdBefore: 'Created before',
};

/** The package types the browser lists, as the index knows them. */
export const PACKAGE_TYPES = [
  { value: 'npm', label: 'npm' },
  { value: 'pypi', label: 'PyPI' },
  { value: 'maven', label: 'Maven' },
];

/** Spec 02 §2: install commands per package type, with and without a version. */
export function installCommand(type: string, name: string, version?: string): string | undefined {
  switch (type) {
    case 'npm':
      return version ? `npm install ${name}@${version}` : `npm install ${name}`;
    case 'pypi':
      return version ? `pip install ${name}==${version}` : `pip install ${name}`;
    case 'maven': {
      const [groupId, artifactId] = name.split(':');
      return [
        '<dependency>',
        `  <groupId>${groupId}</groupId>`,
        `  <artifactId>${artifactId}</artifactId>`,
        ...(version ? [`  <version>${version}</version>`] : []),
        '</dependency>',
      ].join('\n');
    }
    default:
      return undefined;
  }
}

/** The version tab a version opens on: the readme for npm, the properties otherwise. */
export const defaultVersionTab = (type: string) => (type === 'npm' ? 'readme' : 'properties');

export const packagePath = (packageId: string, version?: string) =>
  `${PACKAGES_PATH}/${encodeURIComponent(packageId)}${version ? `/${encodeURIComponent(version)}` : ''}`;
