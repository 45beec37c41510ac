import { useEffect, useMemo, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { errorMessage } from '../../api/errorMessage';
import type { Row } from '../../api/resource';
import { ListGrid } from '../../engine/list/ListGrid';
import { useScreenList } from '../../engine/list/useScreenList';
import { NOT_FOUND_PATH } from '../../shell/messages';
import type { BuildVersion } from './api';
import {
  BUILD_LABELS as L,
  BUILD_MESSAGES as M,
  BUILD_TITLES,
  BUILDS_PATH,
  buildPath,
  SCREEN_ID,
} from './messages';
import {
  $deleteFailed,
  $deleting,
  $versions,
  $versionsFailed,
  $versionsOf,
  deleteAllFx,
  deleteAllRequested,
  deleteRequested,
  rowKey,
  versionsOpened,
} from './model';

/** A versions row: the version keyed by its number and start (one number may run twice). */
const versionRow = (version: BuildVersion): Row => ({
  ...version,
  id: `${version.buildNumber}@${version.time}`,
});

/**
 * A build's versions, drawn by the engine's grid (the descriptor's `lists.versions`): number
 * (a link to the build), time, status, CI link; Delete Selected and Delete All Builds, each
 * confirmed.
 */
export function BuildVersions({ name }: { name: string }) {
  const [versions, versionsOf, failed, deleteFailed, deleting] = useUnit([
    $versions,
    $versionsOf,
    $versionsFailed,
    $deleteFailed,
    $deleting,
  ]);
  const [open, remove, removeAll] = useUnit([versionsOpened, deleteRequested, deleteAllRequested]);
  const { list, error } = useScreenList(SCREEN_ID, 'versions');
  const [confirmAll, setConfirmAll] = useState(false);
  const [allGone, setAllGone] = useState(false);
  useEffect(() => {
    open({ name });
  }, [name, open]);
  useEffect(() => deleteAllFx.done.watch(() => setAllGone(true)), []);
  const shown = useMemo(
    () => (versionsOf === name ? versions.map(versionRow) : []),
    [versions, versionsOf, name],
  );
  if (allGone) return <Navigate to={BUILDS_PATH} replace />;
  // A builds fetch failure goes to the 404 page (spec 02 §2).
  if (failed) return <Navigate to={NOT_FOUND_PATH} replace />;
  const deleteRows = (rows: Row[]) =>
    remove(
      (rows as unknown as BuildVersion[]).map((version) => ({
        name,
        number: version.buildNumber,
        startTime: String(version.time),
        projectKey: version.projectKey,
      })),
    );
  const deleteAll = () => {
    removeAll({ name, projectKey: versions[0]?.projectKey });
    setConfirmAll(false);
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
          disabled={shown.length === 0 || deleting}
          onClick={() => setConfirmAll(true)}
        >
          {L.deleteAll}
        </button>
      </div>
      {deleteFailed && <p role="alert">{`${M.deleteFailed}: ${deleteFailed}`}</p>}
      {error && <p role="alert">{errorMessage(error, M.loadFailed)}</p>}
      {list && (
        <ListGrid
          list={list}
          label={list.label ?? BUILD_TITLES.versions}
          keyOf={rowKey}
          rows={shown}
          loaded={versionsOf === name}
          loading={versionsOf !== name}
          busy={deleting}
          onDelete={deleteRows}
        />
      )}
      {confirmAll && (
        <ConfirmDialog
          title={L.deleteTitle}
          text={L.deleteAllText(name)}
          confirmLabel={L.confirmDelete}
          cancelLabel={L.cancel}
          danger
          onConfirm={deleteAll}
          onCancel={() => setConfirmAll(false)}
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
