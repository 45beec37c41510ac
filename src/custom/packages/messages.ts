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
  noDependencies: 'This version declares no dependencies.',
  /** Spec 02 §5 states the rule, not its words: Depot's. */
  termTooShort: 'Type at least 3 characters to search (* and ? do not count)',
};

export const PACKAGE_LABELS = {
  versionTabs: 'Version details',
  title: 'Packages',
  menuGroup: 'Depot',
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
  dependencies: 'Dependencies',
  builds: 'Builds',
  dependency: 'Dependency',
  range: 'Version or range',
  dependencyScope: 'Scope',
  client: 'Client',
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
  { value: 'docker', label: 'Docker' },
];

/** One way to install a package: the client it is for and what to type or paste. */
export interface InstallSnippet {
  client: string;
  text: string;
}

/** Where a Docker image is pulled from: this server, a repository and the image's name. */
export interface ImageSource {
  host: string;
  repoKey: string;
}

function mavenSnippets(name: string, version: string | undefined): InstallSnippet[] {
  const [groupId, artifactId] = name.split(':');
  const coordinates = `${groupId}:${artifactId}${version ? `:${version}` : ''}`;
  return [
    {
      client: 'Maven',
      text: [
        '<dependency>',
        `  <groupId>${groupId}</groupId>`,
        `  <artifactId>${artifactId}</artifactId>`,
        ...(version ? [`  <version>${version}</version>`] : []),
        '</dependency>',
      ].join('\n'),
    },
    { client: 'Gradle (Kotlin)', text: `implementation("${coordinates}")` },
    { client: 'Gradle (Groovy)', text: `implementation '${coordinates}'` },
    {
      client: 'sbt',
      text: `libraryDependencies += "${groupId}" % "${artifactId}"${version ? ` % "${version}"` : ''}`,
    },
  ];
}

/**
 * Spec 02 §2: how to install a package, per package type and client, of a given version or
 * the latest. A Docker image needs where it lives (this host and a repository); without it,
 * or for a type with no client (generic), there is nothing to show.
 */
export function installSnippets(
  type: string,
  name: string,
  version?: string,
  image?: ImageSource,
): InstallSnippet[] {
  switch (type) {
    case 'npm': {
      const spec = version ? `${name}@${version}` : name;
      return [
        { client: 'npm', text: `npm install ${spec}` },
        { client: 'Yarn', text: `yarn add ${spec}` },
        { client: 'pnpm', text: `pnpm add ${spec}` },
      ];
    }
    case 'pypi':
      return [
        { client: 'pip', text: `pip install ${version ? `${name}==${version}` : name}` },
        { client: 'Poetry', text: `poetry add ${version ? `${name}@${version}` : name}` },
        { client: 'uv', text: `uv add ${version ? `${name}==${version}` : name}` },
      ];
    case 'maven':
      return mavenSnippets(name, version);
    case 'docker': {
      if (!image) return [];
      const reference = `${image.host}/${image.repoKey}/${name}${version ? `:${version}` : ''}`;
      return [
        { client: 'Docker', text: `docker pull ${reference}` },
        { client: 'Podman', text: `podman pull ${reference}` },
      ];
    }
    default:
      return [];
  }
}

/** The package types whose versions carry a readme (npm's README, PyPI's long description). */
export const READMES = new Set(['npm', 'pypi']);
/** The package types whose manifests list dependencies. */
export const DEPENDENCIES = new Set(['npm', 'pypi', 'maven']);

/** Spec 02 §2: a version opens on its readme for npm packages, otherwise on its properties. */
export const defaultVersionTab = (type: string) => (type === 'npm' ? 'readme' : 'properties');

export const packagePath = (packageId: string, version?: string) =>
  `${PACKAGES_PATH}/${encodeURIComponent(packageId)}${version ? `/${encodeURIComponent(version)}` : ''}`;
