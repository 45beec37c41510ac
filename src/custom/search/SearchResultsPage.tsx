import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { AgGridReact } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  DateFilterModule,
  ModuleRegistry,
  NumberFilterModule,
  RowSelectionModule,
  TextFilterModule,
  type ColDef,
  type ICellRendererParams,
} from 'ag-grid-community';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import { MultiComboBox } from '../../design/components/MultiComboBox';
import { TabBar } from '../../design/components/TabBar';
import { formatSize } from '../storage-summary/format';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { notificationShown } from '../../shell/notifications/model';
import { $contextProjectKey } from '../../shell/project/model';
import type { SearchResult } from './api';
import {
  NO_PROJECT_CONTEXT,
  SEARCH_LABELS as L,
  SEARCH_MESSAGES as M,
  SEARCH_RESULTS_PATH,
  SEARCH_TYPES,
} from './messages';
import {
  $continueState,
  $loading,
  $params,
  $recent,
  $repositoryChoices,
  $results,
  $searched,
  $unavailable,
  allRequested,
  deleteRequested,
  moreRequested,
  recentOpened,
  searchFormOpened,
  searchRouted,
  searchSubmitted,
} from './model';
import {
  fromQueryString,
  isChecksumLength,
  toQueryString,
  withArchiveFallback,
  type SearchParams,
} from './query';
import { $currentUser } from '../../shell/session/model';
import { ARCHIVE_SEARCH_PATH } from '../retention/messages';
import { archiveQueryOf } from '../retention/range';
import { describeSearch } from './recent';
import { PackageSearchFields } from './PackageSearchFields';
import './search.css';

ModuleRegistry.registerModules([
  ClientSideRowModelModule,
  RowSelectionModule,
  TextFilterModule,
  NumberFilterModule,
  DateFilterModule,
]);

const fileLink = (row: SearchResult) =>
  `/artifactory/${encodeURIComponent(row.repoKey)}/${row.path.split('/').map(encodeURIComponent).join('/')}`;
const treeLink = (row: SearchResult) => `/repos/tree/General/${row.repoKey}/${row.path}`;

function columns(): ColDef<SearchResult>[] {
  return [
    {
      field: 'name',
      headerName: L.columns.name,
      flex: 2,
      filter: 'agTextColumnFilter',
      cellRenderer: ({ data }: ICellRendererParams<SearchResult>) =>
        data && <Link to={treeLink(data)}>{data.entryPath ?? data.name}</Link>,
    },
    { field: 'path', headerName: L.columns.path, flex: 3, filter: 'agTextColumnFilter' },
    { field: 'repoKey', headerName: L.columns.repository, flex: 1, filter: 'agTextColumnFilter' },
    {
      field: 'modifiedDate',
      headerName: L.columns.modified,
      minWidth: 180,
      flex: 1,
      filter: 'agDateColumnFilter',
      filterValueGetter: ({ data }) =>
        data?.modifiedDate === undefined ? null : new Date(data.modifiedDate),
      valueFormatter: ({ value }) => (value ? new Date(value as number).toLocaleString() : ''),
    },
    {
      field: 'size',
      headerName: L.columns.size,
      width: 120,
      filter: 'agNumberColumnFilter',
      valueFormatter: ({ value }) => (typeof value === 'number' ? formatSize(value) : ''),
    },
  ];
}

/** The fields of a search type's form; switching type keeps the name (spec 02 §4). */
function SearchForm({ initial }: { initial: SearchParams }) {
  const navigate = useNavigate();
  const inProject = useUnit($contextProjectKey) !== null;
  const repositoryChoices = useUnit($repositoryChoices);
  const archiveIndexed = useUnit($currentUser)?.admin === true;
  useEffect(() => searchFormOpened(), []);
  const [draft, setDraft] = useState<SearchParams>(initial);
  useEffect(() => setDraft(initial), [initial]);
  const set = (patch: Partial<SearchParams>) => setDraft((current) => ({ ...current, ...patch }));
  const text = (key: keyof SearchParams, label: string) => (
    <label className="search-field">
      <span>{label}</span>
      <input
        value={(draft[key] as string | undefined) ?? ''}
        onChange={(event) => set({ [key]: event.target.value })}
      />
    </label>
  );
  const flag = (key: 'excludeInnerClasses' | 'searchClassOnly', label: string) => (
    <label className="search-flag">
      <input
        type="checkbox"
        checked={draft[key] ?? false}
        onChange={(event) => set({ [key]: event.target.checked })}
      />
      {label}
    </label>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checksum = draft.searchType === 'checksum' ? (draft.checksum ?? '') : undefined;
    // Spec 02 §5 and §8: a bad checksum length is told at once, with no request.
    if (checksum !== undefined && !isChecksumLength(checksum)) {
      notificationShown({ kind: 'error', text: M.invalidChecksumLength });
      return;
    }
    if (draft.searchType === 'archive') {
      const aql = archiveQueryOf(draft.name ?? '');
      navigate(`${ARCHIVE_SEARCH_PATH}?${new URLSearchParams({ aql })}`);
      return;
    }
    searchSubmitted(draft);
    navigate(`${SEARCH_RESULTS_PATH}?${toQueryString(draft)}`);
  };
  return (
    <form className="search-form" role="search" aria-label={L.title} onSubmit={submit}>
      <TabBar
        label={L.type}
        className="search-types"
        names={SEARCH_TYPES.map((type) => type.id).filter(
          (id) => id !== 'archive' || archiveIndexed,
        )}
        disabled={inProject ? NO_PROJECT_CONTEXT : []}
        selected={draft.searchType}
        labelOf={(id) => SEARCH_TYPES.find((type) => type.id === id)?.label ?? id}
        onSelect={(id) => setDraft({ searchType: id, name: draft.name })}
      >
        <div className="search-fields">
          {['quick', 'trash', 'remote'].includes(draft.searchType) && text('name', L.name)}
          {draft.searchType === 'pkg' && <PackageSearchFields draft={draft} onChange={set} />}
          {draft.searchType === 'archive' && text('name', L.archiveName)}
          {draft.searchType === 'checksum' && text('checksum', L.checksum)}
          {draft.searchType === 'property' && text('properties', L.propertyKey)}
          {draft.searchType === 'class' && (
            <>
              {text('name', L.className)}
              {text('path', L.classPath)}
              {flag('excludeInnerClasses', L.excludeInnerClasses)}
              {flag('searchClassOnly', L.searchClassOnly)}
            </>
          )}
          {draft.searchType === 'gavc' && (
            <>
              {text('groupID', L.groupID)}
              {text('artifactID', L.artifactID)}
              {text('version', L.version)}
              {text('classifier', L.classifier)}
            </>
          )}
          {!['trash', 'remote', 'archive'].includes(draft.searchType) && (
            <MultiComboBox
              label={L.repositories}
              choices={repositoryChoices}
              values={draft.repo ?? []}
              onChange={(repo) => set({ repo })}
              emptyText={L.noRepositoryMatches}
            />
          )}
          <button type="submit" className="btn btn-primary">
            {L.search}
          </button>
        </div>
      </TabBar>
    </form>
  );
}

function RecentSearches() {
  const recent = useUnit($recent);
  useEffect(() => recentOpened(), []);
  if (recent.length === 0) return null;
  return (
    <nav className="search-recent" aria-label={L.recent}>
      <h2>{L.recent}</h2>
      <ul>
        {recent.map((entry) => (
          <li key={entry.id}>
            <Link to={`${SEARCH_RESULTS_PATH}?${entry.queryString}`}>{describeSearch(entry)}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Results() {
  const navigate = useNavigate();
  const unavailable = useUnit($unavailable);
  const [rows, continueState, loading, searched] = useUnit([
    $results,
    $continueState,
    $loading,
    $searched,
  ]);
  const grid = useRef<AgGridReact<SearchResult>>(null);
  const [selected, setSelected] = useState<SearchResult[]>([]);
  const [confirming, setConfirming] = useState(false);
  const columnDefs = useMemo(columns, []);
  if (!searched) return null;
  const notAnswered = unavailable.length > 0 && (
    <p className="search-unavailable" role="note">
      {M.unavailable(unavailable)}
    </p>
  );
  if (rows.length === 0)
    return (
      <>
        {notAnswered}
        <p className="empty-state">{M.noResults}</p>
      </>
    );
  const download = () => {
    for (const row of selected) window.open(fileLink(row), '_blank', 'noopener');
  };
  return (
    <section className="search-results" aria-busy={loading}>
      {notAnswered}
      <div className="search-results-bar">
        <p role="status">{continueState ? M.showingFirst(rows.length) : M.found(rows.length)}</p>
        <button type="button" className="btn" disabled={selected.length === 0} onClick={download}>
          {L.downloadSelected}
        </button>
        <button
          type="button"
          className="btn"
          disabled={selected.length !== 1}
          onClick={() => navigate(treeLink(selected[0]!))}
        >
          {L.showInTree}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={selected.length === 0}
          onClick={() => setConfirming(true)}
        >
          {L.deleteSelected}
        </button>
      </div>
      <div className="search-grid" aria-label={L.title}>
        <AgGridReact<SearchResult>
          ref={grid}
          theme={depotGridTheme}
          localeText={depotGridLocaleText}
          rowData={rows}
          columnDefs={columnDefs}
          domLayout="autoHeight"
          rowSelection={{ mode: 'multiRow' }}
          getRowId={({ data }) => `${data.repoKey}/${data.path}/${data.entryPath ?? ''}`}
          onSelectionChanged={({ api }) => setSelected(api.getSelectedRows())}
        />
      </div>
      {continueState && (
        <div className="search-more">
          <button type="button" className="btn" disabled={loading} onClick={() => moreRequested()}>
            {L.loadMore}
          </button>
          <button type="button" className="btn" disabled={loading} onClick={() => allRequested()}>
            {L.loadAll}
          </button>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title={L.deleteSelected}
          text={L.confirmDelete(selected.length)}
          danger
          confirmLabel={L.deleteSelected}
          cancelLabel={L.cancel}
          onConfirm={() => {
            setConfirming(false);
            deleteRequested(selected);
            setSelected([]);
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

/** The artifact search results page (spec 02 §2): reached by pushing query parameters. */
export default function SearchResultsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const params = useUnit($params);
  const archiveIndexed = useUnit($currentUser)?.admin === true;
  const asked = useMemo(() => fromQueryString(location.search), [location.search]);
  const routed = useMemo(() => withArchiveFallback(asked, archiveIndexed), [asked, archiveIndexed]);
  const asksForSearch = new URLSearchParams(location.search).has('searchType');
  useEffect(() => {
    // The archive's results have their own page (spec 02 §2).
    if (asksForSearch && routed.searchType === 'archive')
      navigate(
        `${ARCHIVE_SEARCH_PATH}?${new URLSearchParams({ aql: archiveQueryOf(routed.name ?? '') })}`,
        {
          replace: true,
        },
      );
    else if (asksForSearch) searchRouted(routed);
  }, [routed, asksForSearch, navigate]);
  return (
    <div className="search-page">
      <h1>{L.title}</h1>
      <SearchForm initial={params ?? routed} />
      <RecentSearches />
      {asksForSearch && <Results />}
    </div>
  );
}
