import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { NOT_FOUND_PATH } from '../../shell/messages';
import { $currentUser } from '../../shell/session/model';
import { TabBar } from '../../design/components/TabBar';
import { useKeyedData } from '../../components/useKeyedData';
import { buildsApi, type BuildAt } from './api';
import { BuildTab } from './BuildTabs';
import {
  BUILD_LABELS as L,
  BUILD_MESSAGES as M,
  ADMIN_BUILD_TABS,
  BUILD_TABS,
  BUILD_TITLES,
  BUILDS_PATH,
  buildPath,
  type BuildTabId,
} from './messages';
import { $deleteFailed, deleteFx, deleteRequested } from './model';
import { PromoteDialog } from './PromoteDialog';

const isTab = (tab: string): tab is BuildTabId => BUILD_TABS.some((t) => t.id === tab);
const tabsFor = (admin: boolean) =>
  BUILD_TABS.filter((t) => admin || !ADMIN_BUILD_TABS.includes(t.id));

/** One build: its tabs, Promote and Delete. A build that cannot be read goes to 404. */
export function BuildDetails({ build, tab }: { build: BuildAt; tab: string }) {
  const navigate = useNavigate();
  const key = `${build.name}#${build.number}@${build.startTime}`;
  const general = useKeyedData(key, () => buildsApi.general(build), M.loadFailed);
  const [deleteFailed, remove, user] = useUnit([$deleteFailed, deleteRequested, $currentUser]);
  const tabs = tabsFor(user?.admin === true);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [promoting, setPromoting] = useState(false);
  useEffect(
    () => deleteFx.done.watch(() => navigate(buildPath(build.name), { replace: true })),
    [navigate, build.name],
  );
  if (general.error) return <Navigate to={NOT_FOUND_PATH} replace />;
  const current: BuildTabId = isTab(tab) && tabs.some((t) => t.id === tab) ? tab : 'general';
  return (
    <section className="builds-page" aria-busy={general.loading}>
      <nav aria-label="Breadcrumb" className="builds-breadcrumb">
        <Link to={BUILDS_PATH}>{BUILD_TITLES.list}</Link> /{' '}
        <Link to={buildPath(build.name)}>{build.name}</Link>
      </nav>
      <h1>
        {BUILD_TITLES.details}: {build.name} #{build.number}
      </h1>
      <div className="builds-actions">
        <button type="button" className="btn" onClick={() => setPromoting(true)}>
          {L.promote}
        </button>
        <button type="button" className="btn btn-danger" onClick={() => setConfirmDelete(true)}>
          {L.deleteVersion}
        </button>
      </div>
      {deleteFailed && <p role="alert">{`${M.deleteFailed}: ${deleteFailed}`}</p>}
      <TabBar
        label={L.tabs}
        names={tabs.map((t) => t.id)}
        selected={current}
        labelOf={(id) => BUILD_TABS.find((t) => t.id === id)?.label ?? id}
        onSelect={(id) => navigate(buildPath(build.name, build.number, build.startTime, id))}
      >
        <div className="builds-tab-panel">
          {general.data && <BuildTab tab={current} build={build} general={general.data} />}
        </div>
      </TabBar>
      {promoting && <PromoteDialog build={build} onClose={() => setPromoting(false)} />}
      {confirmDelete && (
        <ConfirmDialog
          title={L.deleteTitle}
          text={L.deleteText(1)}
          confirmLabel={L.confirmDelete}
          cancelLabel={L.cancel}
          danger
          onConfirm={() => {
            setConfirmDelete(false);
            remove([build]);
          }}
          onCancel={() => setConfirmDelete(false)}
        />
      )}
    </section>
  );
}
