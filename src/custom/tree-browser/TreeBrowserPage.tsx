import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { Panel, PanelGroup, PanelResizeHandle } from 'react-resizable-panels';
import { isAnonymous } from '../../shell/access';
import { notificationShown } from '../../shell/notifications/model';
import { $currentUser } from '../../shell/session/model';
import { DeployDialog } from './deploy/DeployDialog';
import { DEPLOY_LABELS } from './deploy/messages';
import { UploadsPanel } from './deploy/UploadsPanel';
import { $nodeInfo } from './details-model';
import './actions-model';
import { availableTabs, DetailsPanel } from './DetailsPanel';
import { keyAction } from './keyboard';
import { NodeActionDialogs } from './NodeActions';
import {
  $activeId,
  $activeIndex,
  $activeRow,
  $favoritesMissing,
  $filtered,
  $rows,
  $rootsLoaded,
  $settings,
  $trashStart,
  favoriteToggled,
  filtersChanged,
  noRepositoriesFound,
  pathRequested,
  rowClosed,
  rowOpened,
  rowSelected,
  rowToggled,
  treeMounted,
  treeUnmounted,
} from './model';
import { DEFAULT_BROWSER, DEFAULT_TAB, TREE_LABELS as L, TREE_MESSAGES as M } from './messages';
import { parseTreeSplat, treeHref, type TreeLocation } from './location';
import { useRouteFollowsActiveNode } from './route-sync';
import { TreeRowView, rowElementId } from './TreeRowView';
import { TreeToolbar } from './TreeToolbar';
import { VirtualRows } from './VirtualRows';
import './tree-browser.css';

/** Where the panes' split is remembered (the library keeps it in local storage). */
const PANES_KEY = 'depot.tree.panes';
const TRASH_SPLIT_KEY = 'depot.tree.trashSplit';

/** Row heights of spec 02 §9: 30 px, 26 px in the compact view. */
const ROW_HEIGHT = { normal: 30, compact: 26 };

/**
 * The artifact browser at /repos/{browser}/{tab}/{repoKey/path} (spec 02 §2): the
 * repository tree on the left, the active node's tabs on the right, the route following
 * the active node and tab, and the route's path walked to on load and on Back/Forward.
 */
export default function TreeBrowserPage() {
  const { browser, '*': splat } = useParams();
  // Spec 01 §2's artifact path prefix: /artifactory/{repoKey}/{path} opens the tree there.
  if (browser === undefined && splat)
    return (
      <Navigate
        to={treeHref({ browser: DEFAULT_BROWSER, tab: DEFAULT_TAB, path: splat })}
        replace
      />
    );
  if (browser !== DEFAULT_BROWSER || !splat) {
    const location = parseTreeSplat(DEFAULT_BROWSER, splat);
    return <Navigate to={treeHref({ ...location, tab: location.tab || DEFAULT_TAB })} replace />;
  }
  return <TreeBrowser location={parseTreeSplat(browser, splat)} />;
}

function TreeBrowser({ location }: { location: TreeLocation }) {
  const navigate = useNavigate();
  const [activeId, activeRow, nodeInfo, noFavorites] = useUnit([
    $activeId,
    $activeRow,
    $nodeInfo,
    $favoritesMissing,
  ]);
  const [mounted, unmounted, requestPath, notify] = useUnit([
    treeMounted,
    treeUnmounted,
    pathRequested,
    notificationShown,
  ]);

  // The first visit walks to the route's path on a fresh tree.
  const initialPath = useRef(location.path);
  useEffect(() => {
    mounted(initialPath.current);
    return () => unmounted();
  }, [mounted, unmounted]);

  // The active node and tab are written back to the route (spec 02 §2).
  const tabs = availableTabs(nodeInfo, activeRow);
  const tabFellBack = nodeInfo?.id === activeId && !tabs.includes(location.tab);
  const tab = tabFellBack ? DEFAULT_TAB : location.tab;
  useRouteFollowsActiveNode({ location, activeId, tab, tabFellBack, requestPath });

  // No repository at all: nothing to browse here.
  useEffect(
    () =>
      noRepositoriesFound.watch(() => {
        notify({ kind: 'info', text: M.noRepositories });
        navigate('/');
      }),
    [navigate, notify],
  );

  const [deploying, setDeploying] = useState(false);
  const anonymous = isAnonymous(useUnit($currentUser));

  const onTab = useCallback(
    (name: string) => navigate(treeHref({ ...location, tab: name })),
    [location, navigate],
  );

  return (
    <section className="tree-browser" aria-labelledby="tree-browser-title">
      <header className="page-header">
        <h1 id="tree-browser-title">{L.title}</h1>
        {!anonymous && (
          <button type="button" className="btn btn-primary" onClick={() => setDeploying(true)}>
            {DEPLOY_LABELS.deploy}
          </button>
        )}
      </header>
      {/* Spec 02 §2 panel sizes: 30 and 70 percent, each 15 to 90; the split is remembered. */}
      <PanelGroup direction="horizontal" autoSaveId={PANES_KEY} className="tree-browser-panes">
        <Panel
          id="tree"
          order={1}
          defaultSize={30}
          minSize={15}
          maxSize={90}
          className="tree-pane card"
        >
          <TreeToolbar />
          {noFavorites ? <EmptyFavorites /> : <Trees />}
        </Panel>
        <PanelResizeHandle className="pane-resize-handle" aria-label={L.resizePanes} />
        <Panel
          id="details"
          order={2}
          defaultSize={70}
          minSize={15}
          maxSize={90}
          className="details-pane"
        >
          <DetailsPanel row={activeRow} tab={tab} onTab={onTab} />
        </Panel>
      </PanelGroup>
      <NodeActionDialogs />
      {deploying && (
        <DeployDialog active={activeRow?.node ?? null} onClose={() => setDeploying(false)} />
      )}
      <UploadsPanel />
    </section>
  );
}

function EmptyFavorites() {
  return (
    <div className="tree-empty" role="status">
      <strong>{M.noFavorites}</strong>
      <p>{M.noFavoritesHint}</p>
    </div>
  );
}

/** The repository tree and, below it, the trash can's own tree (spec 02 §4). */
function Trees() {
  const [rows, trashStart, loaded, filtered, clearFilters] = useUnit([
    $rows,
    $trashStart,
    $rootsLoaded,
    $filtered,
    filtersChanged,
  ]);
  if (loaded && rows.length === 0 && filtered) {
    return (
      <div className="tree-empty" role="status">
        <strong>{M.noMatches}</strong>
        <p>{M.noMatchesHint}</p>
        <button
          type="button"
          className="btn"
          onClick={() => clearFilters({ packageTypes: [], repositoryTypes: [] })}
        >
          {L.clearFilters}
        </button>
      </div>
    );
  }
  if (!loaded && rows.length === 0) return <p role="status">{L.loading}</p>;
  return (
    // Spec 02 §2: the trash can's tree takes 12.5 percent below the main tree's 87.5 (12.5 to 90).
    <PanelGroup direction="vertical" autoSaveId={TRASH_SPLIT_KEY} className="tree-trees">
      <Panel
        id="main"
        order={1}
        defaultSize={87.5}
        minSize={12.5}
        maxSize={90}
        className="tree-main"
      >
        <TreeRows start={0} end={trashStart} label={L.tree} className="tree-rows" autoFocus />
      </Panel>
      {trashStart < rows.length && (
        <>
          <PanelResizeHandle className="pane-resize-handle" aria-label={L.resizeTrash} />
          <Panel id="trash" order={2} defaultSize={12.5} minSize={10} className="tree-trash">
            <TreeRows
              start={trashStart}
              end={rows.length}
              label={L.trashTree}
              className="tree-rows"
            />
          </Panel>
        </>
      )}
    </PanelGroup>
  );
}

/** One virtualized tree over `rows[start..end)`. */
function TreeRows({
  start,
  end,
  label,
  className,
  autoFocus,
}: {
  start: number;
  end: number;
  label: string;
  className: string;
  autoFocus?: boolean;
}) {
  const [rows, activeIndex, settings] = useUnit([$rows, $activeIndex, $settings]);
  const [select, toggle, open, close, favorite] = useUnit([
    rowSelected,
    rowToggled,
    rowOpened,
    rowClosed,
    favoriteToggled,
  ]);
  const activeHere = activeIndex >= start && activeIndex < end;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, pageRows: number) => {
    const action = keyAction(rows, { start, end }, activeIndex, event.key, pageRows);
    if (!action) return;
    event.preventDefault();
    const id = rows[action.index].id;
    if (action.kind === 'select') select(id);
    else if (action.kind === 'open') open(id);
    else close(id);
  };

  return (
    <VirtualRows
      count={end - start}
      rowHeight={settings.compacted ? ROW_HEIGHT.compact : ROW_HEIGHT.normal}
      activeIndex={activeHere ? activeIndex - start : -1}
      activeElementId={activeHere ? rowElementId(rows[activeIndex].id) : undefined}
      label={label}
      className={className}
      autoFocus={autoFocus}
      onKeyDown={onKeyDown}
      renderRow={(index) => {
        const row = rows[start + index];
        return (
          <TreeRowView
            row={row}
            active={start + index === activeIndex}
            favorite={settings.favorites.includes(row.node.repoKey)}
            onSelect={select}
            onToggle={toggle}
            onFavorite={favorite}
          />
        );
      }}
    />
  );
}
