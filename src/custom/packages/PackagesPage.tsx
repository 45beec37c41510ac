import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { AgGridReact } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  ModuleRegistry,
  type ColDef,
  type ICellRendererParams,
} from 'ag-grid-community';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import type {
  Dependency,
  PackageNode,
  PackageSearch,
  Readme,
  VersionFilters,
  VersionNode,
} from './api';
import {
  $endCursor,
  $listFailed,
  $onlyReleases,
  $package,
  $packageLoading,
  $packages,
  $packagesFetched,
  $properties,
  $readme,
  $dependencies,
  $search,
  $version,
  $versionChoices,
  $versionFilters,
  $versionLoading,
  $versions,
  listOpened,
  moreRequested,
  onlyReleasesToggled,
  packageOpened,
  parsePackageId,
  searchSubmitted,
  versionFiltersChanged,
  versionOpened,
} from './model';
import {
  DEPENDENCIES,
  defaultVersionTab,
  installSnippets,
  type InstallSnippet,
  READMES,
  PACKAGE_LABELS as L,
  PACKAGE_MESSAGES as M,
  PACKAGE_TYPES,
  PACKAGES_PATH,
  packagePath,
} from './messages';
import { termLongEnough } from './searchTerm';
import { TabBar } from '../../design/components/TabBar';
import { Select } from '../../design/components/Select';
import { CopyButton } from '../../design/components/CopyButton';
import { Markdown } from '../../design/components/Markdown';
import { DockerImageInfo } from '../../components/DockerImageInfo';
import { BuildsTab } from '../tree-browser/tabs/BuildsTab';
import './packages.css';

ModuleRegistry.registerModules([ClientSideRowModelModule]);

/** The "any" choice of a filter's select: no value to filter by (a listbox key is never empty). */
const ANY = '*';
const TYPE_CHOICES = [{ value: ANY, label: L.allTypes }, ...PACKAGE_TYPES];

/** A file's download URL, each path segment encoded (names may hold '#', '?', spaces). */
const downloadUrl = (repo: string, path: string) =>
  `/artifactory/${encodeURIComponent(repo)}/${path.split('/').map(encodeURIComponent).join('/')}`;
const day = (iso: string) => new Date(iso).toLocaleDateString();
const bytes = (size: number) =>
  size < 1024
    ? `${size} B`
    : size < 1048576
      ? `${(size / 1024).toFixed(1)} KB`
      : `${(size / 1048576).toFixed(1)} MB`;

/** Spec 02 §2: how to install, one tab per client, each with a Copy button. */
function InstallSnippets({ snippets, label }: { snippets: InstallSnippet[]; label: string }) {
  const [client, setClient] = useState(snippets[0]?.client ?? '');
  const shown = snippets.find((snippet) => snippet.client === client) ?? snippets[0];
  if (!shown) return null;
  return (
    <section className="install-command" aria-label={label}>
      <h3>{label}</h3>
      <TabBar
        label={`${label}: ${L.client}`}
        names={snippets.map((snippet) => snippet.client)}
        selected={shown.client}
        labelOf={(name) => name}
        onSelect={setClient}
      >
        <pre>
          <code>{shown.text}</code>
        </pre>
        <CopyButton text={shown.text} what={`${shown.client} ${L.install.toLowerCase()}`} />
      </TabBar>
    </section>
  );
}

/** A readme as its format says: sanitized Markdown or preformatted text. */
function ReadmeView({ readme }: { readme: Readme }) {
  if (!readme.readme) return <p>{M.noReadme}</p>;
  return readme.format === 'markdown' ? (
    <Markdown text={readme.readme} label={L.readme} />
  ) : (
    <pre className="readme">{readme.readme}</pre>
  );
}

function DependenciesTable({ dependencies }: { dependencies: Dependency[] }) {
  if (dependencies.length === 0) return <p>{M.noDependencies}</p>;
  return (
    <table className="plain-table" aria-label={L.dependencies}>
      <thead>
        <tr>
          <th>{L.dependency}</th>
          <th>{L.range}</th>
          <th>{L.dependencyScope}</th>
        </tr>
      </thead>
      <tbody>
        {dependencies.map((dependency) => (
          <tr key={`${dependency.scope}/${dependency.name}`}>
            <td>{dependency.name}</td>
            <td>
              <code>{dependency.range || '*'}</code>
            </td>
            <td>{dependency.scope}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// ---- The list ----

function packageColumns(): ColDef<PackageNode>[] {
  return [
    {
      field: 'name',
      headerName: L.name,
      flex: 2,
      cellRenderer: ({ data }: ICellRendererParams<PackageNode>) =>
        data && <Link to={packagePath(data.id)}>{data.name}</Link>,
    },
    { field: 'packageType', headerName: L.type, width: 110 },
    { field: 'latestVersion', headerName: L.latest, flex: 1 },
    { field: 'versionsCount', headerName: L.versionsCount, width: 110 },
    { headerName: L.downloads, width: 120, valueGetter: ({ data }) => data?.stats.downloads },
    { headerName: L.modified, flex: 1, valueGetter: ({ data }) => data && day(data.modified) },
    {
      headerName: L.licenses,
      flex: 1,
      valueGetter: ({ data }) => data?.licenses.map((license) => license.name).join(', '),
    },
    { headerName: L.tags, flex: 1, valueGetter: ({ data }) => data?.tags.join(', ') },
    { field: 'description', headerName: L.description, flex: 2 },
  ];
}

/** The list's further filters (spec 02 §7: scope, tags, created before and after), as typed. */
interface MoreFilters {
  scope: string;
  tags: string;
  createdAfter: string;
  createdBefore: string;
}

const moreFiltersOf = (search: PackageSearch): MoreFilters => ({
  scope: search.scope ?? '',
  tags: search.tags?.join(', ') ?? '',
  createdAfter: search.createdAfter ?? '',
  createdBefore: search.createdBefore ?? '',
});

function searchOfMoreFilters(more: MoreFilters): Partial<PackageSearch> {
  const tags = more.tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  return {
    scope: more.scope.trim() || undefined,
    tags: tags.length > 0 ? tags : undefined,
    createdAfter: more.createdAfter || undefined,
    createdBefore: more.createdBefore || undefined,
  };
}

function MoreFiltersFields({
  value,
  onChange,
}: {
  value: MoreFilters;
  onChange: (next: MoreFilters) => void;
}) {
  const field = (key: keyof MoreFilters, label: string, type: 'text' | 'date', hint?: string) => (
    <label>
      {label}
      <input
        type={type}
        placeholder={hint}
        value={value[key]}
        onChange={(event) => onChange({ ...value, [key]: event.target.value })}
      />
    </label>
  );
  return (
    <details className="package-more-filters" open={Object.values(value).some(Boolean)}>
      <summary>{L.moreFilters}</summary>
      {field('scope', L.scope, 'text', L.scopeHint)}
      {field('tags', L.tags, 'text', L.tagsHint)}
      {field('createdAfter', L.createdAfter, 'date')}
      {field('createdBefore', L.createdBefore, 'date')}
    </details>
  );
}

function PackageList() {
  const [packages, fetched, search, endCursor, failed] = useUnit([
    $packages,
    $packagesFetched,
    $search,
    $endCursor,
    $listFailed,
  ]);
  const [opened, submitted, requestMore] = useUnit([listOpened, searchSubmitted, moreRequested]);
  // `?name=` is the term (the toolbar's Packages scope sends it; a search here keeps it).
  const [query, setQuery] = useSearchParams();
  const urlName = query.get('name') ?? '';
  const [name, setName] = useState(urlName || search.name || '');
  const [packageType, setPackageType] = useState(search.packageType ?? '');
  const [more, setMore] = useState<MoreFilters>(() => moreFiltersOf(search));
  const [tooShort, setTooShort] = useState(false);
  const columns = useMemo(packageColumns, []);
  const run = (next: PackageSearch) => {
    setTooShort(!termLongEnough(next));
    if (termLongEnough(next)) submitted(next);
  };
  useEffect(() => {
    // A term in the address that is not the search shown: search it (the toolbar, a link).
    if (urlName && urlName !== search.name) {
      setName(urlName);
      run({ name: urlName });
    } else opened();
    // Only a new address asks again; the search's own changes come from `run`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [urlName]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      name: name.trim() || undefined,
      packageType: packageType || undefined,
      ...searchOfMoreFilters(more),
    };
    run(next);
    if (termLongEnough(next)) setQuery(next.name ? { name: next.name } : {});
  };
  const searching = Object.values(search).some((value) =>
    Array.isArray(value) ? value.length > 0 : Boolean(value),
  );
  return (
    <>
      <form className="package-search" role="search" onSubmit={submit}>
        <input
          type="search"
          aria-label={L.search}
          placeholder={L.search}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <Select
          label={L.packageType}
          hideLabel
          options={TYPE_CHOICES}
          value={packageType || ANY}
          onChange={(type) => setPackageType(type === ANY ? '' : type)}
        />
        <button type="submit" className="btn btn-primary">
          {L.searchButton}
        </button>
        <MoreFiltersFields value={more} onChange={setMore} />
        {tooShort && (
          <p role="alert" className="error-text">
            {M.termTooShort}
          </p>
        )}
      </form>
      {failed ? (
        <div className="empty-state" role="status">
          <p>{M.notYetAvailable}</p>
          <p>{M.tryLater}</p>
        </div>
      ) : fetched && packages.length === 0 ? (
        <p className="empty-state">{searching ? M.noneFound : M.useSearch}</p>
      ) : (
        <div className="packages-grid" aria-label={L.title}>
          <AgGridReact<PackageNode>
            theme={depotGridTheme}
            localeText={depotGridLocaleText}
            rowData={packages}
            columnDefs={columns}
            domLayout="autoHeight"
            getRowId={({ data }) => data.id}
          />
        </div>
      )}
      {endCursor && (
        <button type="button" className="btn" onClick={() => requestMore()}>
          {L.loadMore}
        </button>
      )}
    </>
  );
}

// ---- A package ----

function versionColumns(packageId: string): ColDef<VersionNode>[] {
  return [
    {
      field: 'name',
      headerName: L.version,
      flex: 1,
      cellRenderer: ({ data }: ICellRendererParams<VersionNode>) =>
        data && <Link to={packagePath(packageId, data.name)}>{data.name}</Link>,
    },
    {
      headerName: L.repositories,
      flex: 2,
      valueGetter: ({ data }) => data?.repos.map((r) => r.name).join(', '),
    },
    { headerName: L.created, flex: 1, valueGetter: ({ data }) => data && day(data.created) },
    { headerName: L.downloads, width: 120, valueGetter: ({ data }) => data?.stats.downloadCount },
  ];
}

/**
 * How to install a package's latest version: npm and pip resolve "latest" themselves; Maven,
 * Gradle and Docker need it spelled out (a Docker image pulled from the repository that
 * holds its newest tag, on this server).
 */
function latestSnippets(pkg: PackageNode, newestRepo: string | undefined) {
  const resolvesLatest = pkg.packageType === 'npm' || pkg.packageType === 'pypi';
  const image = newestRepo ? { host: window.location.host, repoKey: newestRepo } : undefined;
  return installSnippets(
    pkg.packageType,
    pkg.name,
    resolvesLatest ? undefined : pkg.latestVersion,
    image,
  );
}

function PackageDetails({ packageId }: { packageId: string }) {
  const [pkg, loading, versions, onlyReleases] = useUnit([
    $package,
    $packageLoading,
    $versions,
    $onlyReleases,
  ]);
  const columns = useMemo(() => versionColumns(packageId), [packageId]);
  useEffect(() => {
    packageOpened(packageId);
  }, [packageId]);
  if (loading) return <p>{L.loading}</p>;
  if (!pkg) return <p className="empty-state">{M.noneFound}</p>;
  return (
    <>
      <header className="package-header">
        <h2>{pkg.name}</h2>
        <dl>
          <dt>{L.type}</dt>
          <dd>{pkg.packageType}</dd>
          <dt>{L.latest}</dt>
          <dd>{pkg.latestVersion}</dd>
          <dt>{L.downloads}</dt>
          <dd>{pkg.stats.downloads}</dd>
          {pkg.licenses.length > 0 && (
            <>
              <dt>{L.licenses}</dt>
              <dd>{pkg.licenses.map((l) => l.name).join(', ')}</dd>
            </>
          )}
          {pkg.tags.length > 0 && (
            <>
              <dt>{L.tags}</dt>
              <dd>{pkg.tags.join(', ')}</dd>
            </>
          )}
        </dl>
        {pkg.description && <p>{pkg.description}</p>}
      </header>
      <InstallSnippets
        key={pkg.id}
        snippets={latestSnippets(pkg, versions[0]?.repos[0]?.name)}
        label={L.installLatest}
      />
      <h3>{L.versions}</h3>
      <label className="only-releases">
        <input
          type="checkbox"
          checked={onlyReleases}
          onChange={(event) => onlyReleasesToggled(event.target.checked)}
        />{' '}
        {L.onlyReleases}
      </label>
      {onlyReleases && <p className="note">{M.semverOnly}</p>}
      <VersionFilterBar />
      {versions.length === 0 ? (
        <p className="empty-state">{M.noVersions}</p>
      ) : (
        <div className="versions-grid" aria-label={L.versions}>
          <AgGridReact<VersionNode>
            theme={depotGridTheme}
            localeText={depotGridLocaleText}
            rowData={versions}
            columnDefs={columns}
            domLayout="autoHeight"
            // Rows keep their DOM order when the data changes: screen readers read that order.
            ensureDomOrder
            getRowId={({ data }) => data.id}
          />
        </div>
      )}
    </>
  );
}

/** Spec 02 §2 version filters: version, repository and license, sent to the server. */
function VersionFilterBar() {
  const [filters, choices, change] = useUnit([
    $versionFilters,
    $versionChoices,
    versionFiltersChanged,
  ]);
  const [name, setName] = useState(filters.name ?? '');
  const apply = (next: VersionFilters) => change({ ...filters, ...next });
  return (
    <form
      className="version-filters"
      aria-label={L.versionFilters}
      onSubmit={(event) => {
        event.preventDefault();
        apply({ name: name.trim() });
      }}
    >
      <label>
        {L.versionFilter}
        <input
          className="input"
          type="search"
          value={name}
          onChange={(event) => setName(event.target.value)}
          onBlur={() => apply({ name: name.trim() })}
        />
      </label>
      <ChoiceFilter
        label={L.repositoryFilter}
        anyLabel={L.anyRepository}
        choices={choices.repos}
        value={filters.repo}
        onChange={(repo) => apply({ repo })}
      />
      <ChoiceFilter
        label={L.licenseFilter}
        anyLabel={L.anyLicense}
        choices={choices.licenses}
        value={filters.license}
        onChange={(license) => apply({ license })}
      />
    </form>
  );
}

/** A select of one filter's choices, with "any" first. */
function ChoiceFilter(props: {
  label: string;
  anyLabel: string;
  choices: string[];
  value: string | undefined;
  onChange: (value: string) => void;
}) {
  const options = [
    { value: ANY, label: props.anyLabel },
    ...props.choices.map((choice) => ({ value: choice, label: choice })),
  ];
  return (
    <Select
      label={props.label}
      options={options}
      value={props.value || ANY}
      onChange={(value) => props.onChange(value === ANY ? '' : value)}
    />
  );
}

// ---- A version ----

function VersionDetails({ packageId, version }: { packageId: string; version: string }) {
  const [node, loading, readme, dependencies, properties] = useUnit([
    $version,
    $versionLoading,
    $readme,
    $dependencies,
    $properties,
  ]);
  const [query, setQuery] = useSearchParams();
  const key = parsePackageId(packageId);
  useEffect(() => {
    versionOpened({ packageId, version });
  }, [packageId, version]);
  if (!key) return <p className="empty-state">{M.noneFound}</p>;
  const tabs = [
    ...(READMES.has(key.type) ? ['readme'] : []),
    ...(DEPENDENCIES.has(key.type) ? ['dependencies'] : []),
    'properties',
    'files',
    'builds',
    ...(key.type === 'docker' ? ['layers'] : []),
  ];
  const requested = query.get('activeTab');
  const tab = requested && tabs.includes(requested) ? requested : defaultVersionTab(key.type);
  const tabLabel = (name: string) =>
    name === 'readme'
      ? L.readme
      : name === 'dependencies'
        ? L.dependencies
        : name === 'builds'
          ? L.builds
          : name === 'files'
            ? L.files
            : name === 'layers'
              ? L.layers
              : L.properties;
  if (loading) return <p>{L.loading}</p>;
  if (!node) return <p className="empty-state">{M.noVersions}</p>;
  // A Docker version's lead file is its tag's manifest (docs/docker.md, "Search and packages").
  const lead = node.repos[0];
  const dockerTag =
    key.type === 'docker' && lead ? { repoKey: lead.name, path: lead.leadFilePath } : undefined;
  return (
    <>
      <header className="package-header">
        <h2>
          <Link to={packagePath(packageId)}>{key.name}</Link> {node.name}
        </h2>
        <dl>
          <dt>{L.repositories}</dt>
          <dd>{node.repos.map((r) => r.name).join(', ')}</dd>
          <dt>{L.created}</dt>
          <dd>{day(node.created)}</dd>
          <dt>{L.size}</dt>
          <dd>{bytes(node.size)}</dd>
          <dt>{L.downloads}</dt>
          <dd>{node.stats.downloadCount}</dd>
        </dl>
      </header>
      {/* A Docker tag's pull command comes from its image's own view, below. */}
      {!dockerTag && (
        <InstallSnippets
          key={`${packageId}@${node.name}`}
          snippets={installSnippets(key.type, key.name, node.name)}
          label={L.installThis}
        />
      )}
      {dockerTag && <DockerImageInfo {...dockerTag} part="pull" />}
      <TabBar
        label={L.versionTabs}
        className="version-tabs"
        names={tabs}
        selected={tab}
        labelOf={tabLabel}
        onSelect={(name) =>
          setQuery((current) => ({ ...Object.fromEntries(current), activeTab: name }))
        }
      >
        {tab === 'readme' && <ReadmeView readme={readme} />}
        {tab === 'dependencies' && <DependenciesTable dependencies={dependencies} />}
        {tab === 'properties' &&
          (properties.length === 0 ? (
            <p>{M.noProperties}</p>
          ) : (
            <table className="plain-table">
              <thead>
                <tr>
                  <th>{L.key}</th>
                  <th>{L.values}</th>
                </tr>
              </thead>
              <tbody>
                {properties.map((property) => (
                  <tr key={property.key}>
                    <td>{property.key}</td>
                    <td>{property.values.join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        {tab === 'layers' && dockerTag && <DockerImageInfo {...dockerTag} part="details" />}
        {tab === 'builds' && lead && (
          <BuildsTab node={{ repoKey: lead.name, path: lead.leadFilePath }} />
        )}
        {tab === 'files' && (
          <table className="plain-table">
            <thead>
              <tr>
                <th>{L.file}</th>
                <th>{L.repositories}</th>
                <th>{L.size}</th>
                <th>SHA-256</th>
                <th>SHA-1</th>
              </tr>
            </thead>
            <tbody>
              {(node.files ?? []).map((file) => (
                <tr key={`${file.repo}/${file.path}`}>
                  <td>
                    <a href={downloadUrl(file.repo, file.path)}>{file.name}</a>
                    {file.lead && <span className="badge">{L.lead}</span>}
                  </td>
                  <td>{file.repo}</td>
                  <td>{bytes(file.size)}</td>
                  <td>
                    <code>{file.sha256}</code>
                  </td>
                  <td>
                    <code>{file.sha1}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </TabBar>
    </>
  );
}

/**
 * The package browser (spec 02 §2): /packages lists packages, /packages/{packageId} shows a
 * package and its versions, /packages/{packageId}/{versionId} a version with its tabs.
 */
export default function PackagesPage() {
  const { packageId, versionId } = useParams();
  return (
    <section className="packages-page" aria-labelledby="packages-title">
      <h1 id="packages-title">{packageId ? <Link to={PACKAGES_PATH}>{L.title}</Link> : L.title}</h1>
      {!packageId && <PackageList />}
      {packageId && !versionId && <PackageDetails packageId={packageId} />}
      {packageId && versionId && <VersionDetails packageId={packageId} version={versionId} />}
    </section>
  );
}
