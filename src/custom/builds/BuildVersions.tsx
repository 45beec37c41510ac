import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { formatDate } from '../../engine/list/cellFormat';
import { NOT_FOUND_PATH } from '../../shell/messages';
import type { BuildVersion } from './api';
import {
  BUILD_LABELS as L,
  BUILD_MESSAGES as M,
  BUILD_TITLES,
  BUILDS_PATH,
  buildPath,
} from './messages';
import {
  $deleteFailed,
  $versions,
  $versionsFailed,
  $versionsOf,
  deleteAllFx,
  deleteAllRequested,
  deleteRequested,
  versionsOpened,
} from './model';

const keyOf = (version: BuildVersion) => `${version.buildNumber}@${version.time}`;

/** A build's versions: number, time, status, CI link; delete some or all. */
export function BuildVersions({ name }: { name: string }) {
  const [versions, versionsOf, failed, deleteFailed] = useUnit([
    $versions,
    $versionsOf,
    $versionsFailed,
    $deleteFailed,
  ]);
  const [open, remove, removeAll] = useUnit([versionsOpened, deleteRequested, deleteAllRequested]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<'some' | 'all' | null>(null);
  const [allGone, setAllGone] = useState(false);
  useEffect(() => {
    setSelected(new Set());
    open({ name });
  }, [name, open]);
  useEffect(() => deleteAllFx.done.watch(() => setAllGone(true)), []);
  if (allGone) return <Navigate to={BUILDS_PATH} replace />;
  // A builds fetch failure goes to the 404 page (spec 02 §2).
  if (failed) return <Navigate to={NOT_FOUND_PATH} replace />;
  const shown = versionsOf === name ? versions : [];
  const toggle = (key: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const chosen = shown.filter((version) => selected.has(keyOf(version)));
  const confirmed = () => {
    if (confirm === 'all') removeAll({ name, projectKey: shown[0]?.projectKey });
    else
      remove(
        chosen.map((v) => ({
          name,
          number: v.buildNumber,
          startTime: String(v.time),
          projectKey: v.projectKey,
        })),
      );
    setSelected(new Set());
    setConfirm(null);
  };
  return (
    <section className="builds-page">
      <nav aria-label="Breadcrumb">
        <Link to={BUILDS_PATH}>{BUILD_TITLES.list}</Link>
      </nav>
      <h1>
        {BUILD_TITLES.versions}: {name}
      </h1>
      <div className="builds-actions">
        <button
          type="button"
          className="btn btn-danger"
          disabled={chosen.length === 0}
          onClick={() => setConfirm('some')}
        >
          {L.deleteSelected}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={shown.length === 0}
          onClick={() => setConfirm('all')}
        >
          {L.deleteAll}
        </button>
      </div>
      {deleteFailed && <p role="alert">{`${M.deleteFailed}: ${deleteFailed}`}</p>}
      <table className="builds-table" aria-label={BUILD_TITLES.versions}>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Select</span>
            </th>
            <th scope="col">{L.number}</th>
            <th scope="col">{L.time}</th>
            <th scope="col">{L.status}</th>
            <th scope="col">{L.ciLink}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((version) => (
            <tr key={keyOf(version)}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select build ${version.buildNumber}`}
                  checked={selected.has(keyOf(version))}
                  onChange={() => toggle(keyOf(version))}
                />
              </td>
              <td>
                <Link to={buildPath(name, version.buildNumber, version.time)}>
                  {version.buildNumber}
                </Link>
              </td>
              <td>{formatDate(new Date(version.time).toISOString())}</td>
              <td>{version.status}</td>
              <td>
                {/^https?:\/\//i.test(version.ciUrl) && (
                  <a href={version.ciUrl} target="_blank" rel="noreferrer noopener">
                    {L.openCi}
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {confirm && (
        <ConfirmDialog
          title={L.deleteTitle}
          text={confirm === 'all' ? L.deleteAllText(name) : L.deleteText(chosen.length)}
          confirmLabel={L.confirmDelete}
          cancelLabel={L.cancel}
          danger
          onConfirm={confirmed}
          onCancel={() => setConfirm(null)}
        />
      )}
    </section>
  );
}

/**
 * A build's route without a start time (spec 02 §2): the history decides which start; a
 * number the history lacks goes to the versions page.
 */
export function NumberWithoutStart({ name, number }: { name: string; number: string }) {
  const [versions, versionsOf, failed] = useUnit([$versions, $versionsOf, $versionsFailed]);
  const open = useUnit(versionsOpened);
  useEffect(() => {
    open({ name });
  }, [name, open]);
  if (failed) return <Navigate to={NOT_FOUND_PATH} replace />;
  if (versionsOf !== name) return <p role="status">Loading…</p>;
  const match = versions.find((version) => version.buildNumber === number);
  return <Navigate to={match ? buildPath(name, number, match.time) : buildPath(name)} replace />;
}
