import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { errorMessage } from '../../api/errorMessage';
import type { Row } from '../../api/resource';
import { TextField } from '../../design/components/TextField';
import { ListGrid } from '../../engine/list/ListGrid';
import { useScreenList } from '../../engine/list/useScreenList';
import type { BuildSummary } from './api';
import { BuildDetails } from './BuildDetails';
import { BuildVersions, NumberWithoutStart } from './BuildVersions';
import {
  BUILD_LABELS as L,
  BUILD_MESSAGES as M,
  BUILD_TITLES,
  BUILDS_NEW_PATH,
  BUILDS_PATH,
  SCREEN_ID,
} from './messages';
import {
  $builds,
  $hasMore,
  $listFailed,
  $listLoading,
  $listLoaded,
  listOpened,
  moreRequested,
  rowKey,
} from './model';
import './builds.css';

/**
 * The builds pages (spec 01 §2 builds routes; spec 02 §2 "Builds"): the list, a build's
 * versions, a build's number without its start (resolved through the history), and a
 * build's details with their tab.
 */
export default function BuildsPage() {
  const { buildName, buildNumber, startTime, tab } = useParams();
  const location = useLocation();
  // `builds-new` is the spec's name for these routes (spec 01 §2, 02 §2): links made with
  // it land on the same page under /builds, the one address the console itself writes.
  if (location.pathname.startsWith(BUILDS_NEW_PATH))
    return (
      <Navigate
        to={`${BUILDS_PATH}${location.pathname.slice(BUILDS_NEW_PATH.length)}${location.search}`}
        replace
      />
    );
  if (buildName && buildNumber && startTime)
    return (
      <BuildDetails
        build={{ name: buildName, number: buildNumber, startTime }}
        tab={tab ?? 'general'}
      />
    );
  if (buildName && buildNumber) return <NumberWithoutStart name={buildName} number={buildNumber} />;
  if (buildName) return <BuildVersions name={buildName} />;
  return <BuildsList />;
}

/** A list row: the build's summary keyed by its repository and name (two projects may share a name). */
const summaryRow = (build: BuildSummary): Row => ({
  ...build,
  id: `${build.build_repo}/${build.build_name}`,
});

/**
 * Every build name the caller may read, newest first, 50 at a time, drawn by the engine's
 * grid (the descriptor's `lists.builds`). The search is the server's (`?name=`, which the
 * toolbar's Builds scope sends too), so it finds names beyond the rows loaded.
 */
function BuildsList() {
  const [builds, hasMore, failed, loading, loaded] = useUnit([
    $builds,
    $hasMore,
    $listFailed,
    $listLoading,
    $listLoaded,
  ]);
  const [opened, more] = useUnit([listOpened, moreRequested]);
  const { list, error } = useScreenList(SCREEN_ID, 'builds');
  const [query, setQuery] = useSearchParams();
  const term = query.get('name') ?? '';
  const [text, setText] = useState(term);
  useEffect(() => {
    setText(term);
    opened(term);
  }, [term, opened]);
  const rows = useMemo(() => builds.map(summaryRow), [builds]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(text.trim() ? { name: text.trim() } : {});
  };
  return (
    <section className="builds-page" aria-busy={loading}>
      <h1>{BUILD_TITLES.list}</h1>
      <form role="search" className="builds-search" onSubmit={submit}>
        <TextField
          type="search"
          label={L.search}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="btn">
          {L.searchButton}
        </button>
      </form>
      {failed && <p role="alert">{M.loadFailed}</p>}
      {error && <p role="alert">{errorMessage(error, M.loadFailed)}</p>}
      {list && !failed && (
        <ListGrid
          list={list}
          label={list.label ?? BUILD_TITLES.list}
          keyOf={rowKey}
          rows={rows}
          // A search that found nothing keeps the grid, which says so; no build at all is
          // the list's empty state.
          loaded={loaded && !loading}
          emptyState={term ? undefined : list.emptyState}
          loading={loading}
          busy={false}
        />
      )}
      {hasMore && (
        <button type="button" className="btn" onClick={() => more()} disabled={loading}>
          {L.loadMore}
        </button>
      )}
    </section>
  );
}
