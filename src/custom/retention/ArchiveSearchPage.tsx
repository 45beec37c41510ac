import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { formatSize } from '../storage-summary/format';
import type { ArchivedItem } from './api';
import { ARCHIVE_SEARCH_PATH, RETENTION_LABELS as L, RETENTION_MESSAGES as M } from './messages';
import {
  $archived,
  $restoreFailures,
  $restoring,
  $searchError,
  $searching,
  archiveSearchRouted,
  restoreConfirmed,
} from './model';
import { RestoreDialog } from './RestoreDialog';
import './retention.css';

const idOf = (item: ArchivedItem) => `${item.repo}/${item.path}/${item.name}`;
const C = L.columns;

function ResultsTable({
  results,
  selected,
  onToggle,
}: {
  results: ArchivedItem[];
  selected: Set<string>;
  onToggle: (ids: string[], on: boolean) => void;
}) {
  const all = results.length > 0 && results.every((item) => selected.has(idOf(item)));
  return (
    <table className="retention-table" aria-label={L.searchTitle}>
      <thead>
        <tr>
          <th scope="col">
            <input
              type="checkbox"
              aria-label={L.selectAll}
              checked={all}
              onChange={(event) => onToggle(results.map(idOf), event.target.checked)}
            />
          </th>
          {[C.name, C.repo, C.path, C.created, C.archived, C.size].map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {results.map((item) => (
          <tr key={idOf(item)}>
            <td>
              <input
                type="checkbox"
                aria-label={L.select(idOf(item))}
                checked={selected.has(idOf(item))}
                onChange={(event) => onToggle([idOf(item)], event.target.checked)}
              />
            </td>
            <td>{item.name}</td>
            <td>{item.repo}</td>
            <td>{item.path}</td>
            <td>{new Date(item.created).toLocaleString()}</td>
            <td>{new Date(item.archived).toLocaleString()}</td>
            <td>{formatSize(item.size)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The Archive search results (spec 02 §2, route artifactory.retention.search_results): an AQL
 * query over what retention policies archived, reached by pushing `aql` to the route; the
 * results restore through the 'Select Restore Destination' modal.
 */
export default function ArchiveSearchPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const routed = useMemo(
    () => new URLSearchParams(location.search).get('aql') ?? '',
    [location.search],
  );
  const [results, error, searching, restoring, failures] = useUnit([
    $archived,
    $searchError,
    $searching,
    $restoring,
    $restoreFailures,
  ]);
  const [draft, setDraft] = useState(routed);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [choosing, setChoosing] = useState(false);
  useEffect(() => {
    setDraft(routed);
    setSelected(new Set());
    if (routed.trim()) archiveSearchRouted(routed);
  }, [routed]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) return;
    navigate(`${ARCHIVE_SEARCH_PATH}?${new URLSearchParams({ aql: draft.trim() })}`);
  };
  const toggle = (ids: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });
  const chosen = (results ?? []).filter((item) => selected.has(idOf(item)));
  return (
    <section
      className="retention-page"
      aria-labelledby="archive-search-title"
      aria-busy={searching}
    >
      <h1 id="archive-search-title">{L.searchTitle}</h1>
      <form
        role="search"
        aria-label={L.searchTitle}
        onSubmit={submit}
        className="archive-search-form"
      >
        <label className="search-field">
          <span>{L.aql}</span>
          <textarea
            rows={3}
            value={draft}
            placeholder={L.aqlHint}
            onChange={(event) => setDraft(event.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-primary" disabled={searching}>
          {L.search}
        </button>
      </form>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      {failures.length > 0 && (
        <ul role="alert" className="error-text">
          {failures.map((failure) => (
            <li key={failure}>{failure}</li>
          ))}
        </ul>
      )}
      {results && results.length === 0 && !error && (
        <div role="status" className="empty-state">
          <strong>{M.noResults}</strong>
          <p>{M.noResultsHint}</p>
        </div>
      )}
      {results && results.length > 0 && (
        <>
          <div className="retention-toolbar">
            <span role="status">{L.found(results.length)}</span>
            <button
              type="button"
              className="btn"
              disabled={chosen.length === 0 || restoring}
              onClick={() => setChoosing(true)}
            >
              {chosen.length > 0 ? L.restoreSelected(chosen.length) : L.restore}
            </button>
          </div>
          <ResultsTable results={results} selected={selected} onToggle={toggle} />
        </>
      )}
      {choosing && (
        <RestoreDialog
          items={chosen}
          onClose={() => setChoosing(false)}
          onRestore={(request) => {
            setChoosing(false);
            setSelected(new Set());
            restoreConfirmed(request);
          }}
        />
      )}
    </section>
  );
}
