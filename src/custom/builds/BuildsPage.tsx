import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { formatDate } from '../../engine/list/cellFormat';
import { BuildDetails } from './BuildDetails';
import { BuildVersions, NumberWithoutStart } from './BuildVersions';
import {
  BUILD_LABELS as L,
  BUILD_MESSAGES as M,
  BUILD_TITLES,
  BUILDS_NEW_PATH,
  BUILDS_PATH,
  buildPath,
} from './messages';
import { $builds, $hasMore, $listFailed, $listLoading, listOpened, moreRequested } from './model';
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

function BuildsList() {
  const [builds, hasMore, failed, loading] = useUnit([
    $builds,
    $hasMore,
    $listFailed,
    $listLoading,
  ]);
  const [opened, more] = useUnit([listOpened, moreRequested]);
  // `?name=` is the term: the toolbar's Builds scope sends it, a search here keeps it.
  const [query, setQuery] = useSearchParams();
  const term = query.get('name') ?? '';
  const [text, setText] = useState(term);
  useEffect(() => {
    setText(term);
    opened(term);
  }, [term, opened]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(text.trim() ? { name: text.trim() } : {});
  };
  return (
    <section className="builds-page" aria-busy={loading}>
      <h1>{BUILD_TITLES.list}</h1>
      <form role="search" className="builds-search" onSubmit={submit}>
        <label>
          {L.search}
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" className="btn">
          {L.searchButton}
        </button>
      </form>
      {failed && <p role="alert">{M.loadFailed}</p>}
      {!loading && !failed && builds.length === 0 && <p role="status">{M.none}</p>}
      {builds.length > 0 && (
        <table className="builds-table" aria-label={BUILD_TITLES.list}>
          <thead>
            <tr>
              <th scope="col">{L.name}</th>
              <th scope="col">{L.lastBuildTime}</th>
              <th scope="col">{L.project}</th>
            </tr>
          </thead>
          <tbody>
            {builds.map((build) => (
              <tr key={`${build.build_repo}/${build.build_name}`}>
                <td>
                  <Link to={buildPath(build.build_name)}>{build.build_name}</Link>
                </td>
                <td>{formatDate(new Date(build.build_time).toISOString())}</td>
                <td>{build.project_key}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hasMore && (
        <button type="button" className="btn" onClick={() => more()} disabled={loading}>
          {L.loadMore}
        </button>
      )}
    </section>
  );
}
