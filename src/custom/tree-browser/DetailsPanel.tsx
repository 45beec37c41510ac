import { useId } from 'react';
import { useUnit } from 'effector-react';
import {
  effectivePermissionsApi,
  type ArtifactGeneral,
  type TreeNode,
} from '../../api/treeBrowser';
import { nodeId } from './rows';
import { formatDate } from '../../engine/list/cellFormat';
import { formatCount, formatSize } from '../../custom/storage-summary/format';
import {
  $count,
  $nodeInfo,
  $nodeInfoError,
  $nodeInfoLoading,
  $fixingChecksums,
  countRequested,
  fixChecksumsClicked,
  type NodeInfo,
} from './details-model';
import { DEFAULT_TAB, TREE_LABELS as L } from './messages';
import type { TreeRow } from './rows';
import { actionClicked } from './actions-model';
import { NodeActionsBar } from './NodeActions';
import { TabBar } from '../../design/components/TabBar';
import { DependencyDeclaration } from './tabs/DependencyDeclaration';
import { EffectivePermissionsTable } from '../../components/EffectivePermissionsTable';
import { FileViewTab } from './tabs/FileViewTab';
import { PropertiesTab } from './tabs/PropertiesTab';
import { ViewSourceTab } from './tabs/ViewSourceTab';
import { WatchTab } from './tabs/WatchTab';
import { BuildsTab } from './tabs/BuildsTab';
import { DockerImageInfo } from '../../components/DockerImageInfo';

interface DetailsPanelProps {
  row: TreeRow | null;
  tab: string;
  onTab: (tab: string) => void;
}

/** The tabs available for a node: what the server offers, General until it has answered. */
export function availableTabs(info: NodeInfo | null, row: TreeRow | null): string[] {
  if (!row || !info || info.id !== row.id) return [DEFAULT_TAB];
  const names = info.offer.tabs.map((tab) => tab.name);
  return names.includes(DEFAULT_TAB) ? names : [DEFAULT_TAB, ...names];
}

/** The right-hand side: the active node's tabs, and the chosen tab's content. */
export function DetailsPanel({ row, tab, onTab }: DetailsPanelProps) {
  const [info, error, loading] = useUnit([$nodeInfo, $nodeInfoError, $nodeInfoLoading]);
  if (!row) return <section className="tree-details card" aria-label={L.details} />;
  const tabs = availableTabs(info, row);
  const current = info && info.id === row.id ? info : null;
  return (
    <section className="tree-details card" aria-label={L.details} aria-busy={loading}>
      <h2 className="tree-details-title">{row.node.text}</h2>
      {current && <NodeActionsBar node={row.node} actions={current.offer.actions} />}
      {/* Until the node's tabs are in, a deep link's tab is not among them: General shows. */}
      <TabBar
        label={L.details}
        names={tabs}
        selected={tabs.includes(tab) ? tab : tabs[0]}
        labelOf={(name) => L.tabs[name] ?? name}
        onSelect={onTab}
      >
        <div className="tree-tab-panel">
          {error && (
            <p role="alert" className="error-text">
              {error}
            </p>
          )}
          {!current && !error && <p role="status">{L.loading}</p>}
          {current && <TabContent tab={tab} node={row.node} general={current.general} />}
        </div>
      </TabBar>
    </section>
  );
}

/** The chosen tab's content; each tab reads its own server call. */
function TabContent({
  tab,
  node,
  general,
}: {
  tab: string;
  node: TreeNode;
  general: ArtifactGeneral;
}) {
  switch (tab) {
    case 'EffectivePermission':
      return (
        <EffectivePermissionsTable
          subject={nodeId(node)}
          load={(pageNum, direction) => effectivePermissionsApi.page(node, pageNum, direction)}
        />
      );
    case 'Properties':
      return <PropertiesTab node={node} />;
    case 'Watch':
      return <WatchTab node={node} />;
    case 'Builds':
      return <BuildsTab node={node} />;
    case 'ViewSource':
      return <ViewSourceTab node={node} />;
    case 'PomView':
    case 'GeneralXml':
    case 'PackageJson':
      return <FileViewTab node={node} view={tab} />;
    case 'DockerV2Info':
      return <DockerImageInfo repoKey={node.repoKey} path={node.path} />;
    default:
      return <GeneralTab general={general} node={node} />;
  }
}

function GeneralTab({ general, node }: { general: ArtifactGeneral; node: TreeNode }) {
  const { info, checksums } = general;
  const entries: [string, string | undefined][] = [
    [L.info.name, info.name],
    [L.info.repositoryPath, info.repositoryPath],
    [L.info.packageType, info.packageType],
    [L.info.repoType, info.repoType],
    [L.info.description, info.description],
    [L.info.url, info.url],
    [L.info.includesPattern, info.includesPattern],
    [L.info.excludesPattern, info.excludesPattern],
    [L.info.repositories, info.repositories?.join(', ')],
    [L.info.size, info.size === undefined ? undefined : formatSize(info.size)],
    [L.info.mimeType, info.mimeType],
    [L.info.createdBy, info.createdBy],
    [L.info.modifiedBy, info.modifiedBy],
    [L.info.created, info.created && formatDate(info.created)],
    [L.info.lastModified, info.lastModified && formatDate(info.lastModified)],
    [
      L.info.downloadCount,
      info.downloadCount === undefined ? undefined : formatCount(info.downloadCount),
    ],
    [L.info.lastDownloaded, info.lastDownloaded && formatDate(info.lastDownloaded)],
    [L.info.lastDownloadedBy, info.lastDownloadedBy],
  ];
  return (
    <div className="tree-general">
      <dl className="tree-info">
        {entries
          .filter(([, value]) => value !== undefined && value !== '')
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        {info.downloadPath && (
          <div>
            <dt>{L.info.downloadPath}</dt>
            <dd>
              <DownloadLink href={info.downloadPath} node={node} name={info.name} />
            </dd>
          </div>
        )}
        {general.type !== 'file' && <ArtifactCount />}
      </dl>
      {checksums && <Checksums checksums={checksums} />}
      <DependencyDeclaration node={node} />
    </div>
  );
}

/**
 * The file's address, to copy or to follow: a click downloads as the Download action does
 * (HEAD first, spec 02 §4), so a refusal is told in the page.
 */
function DownloadLink({ href, node, name }: { href: string; node: TreeNode; name: string }) {
  const click = useUnit(actionClicked);
  return (
    <a
      href={href}
      download
      onClick={(event) => {
        event.preventDefault();
        click({ name: 'download', node });
      }}
    >
      {name}
    </a>
  );
}

/**
 * SHA-256, SHA-1 and MD5. Depot skips MD5 at upload unless the client sends one (it would add
 * more to an upload than the 10 % the product allows; docs/tree-browser.md), so a missing MD5
 * is a calm note with a way to compute it, not an error.
 */
function Checksums({ checksums }: { checksums: NonNullable<ArtifactGeneral['checksums']> }) {
  const [fix, fixing] = useUnit([fixChecksumsClicked, $fixingChecksums]);
  const hintId = useId();
  return (
    <section aria-label={L.checksums}>
      <h3>{L.checksums}</h3>
      <dl className="tree-info tree-checksums">
        {(['sha256', 'sha1', 'md5'] as const).map((algorithm) => (
          <div key={algorithm}>
            <dt>{algorithm.toUpperCase()}</dt>
            <dd>
              {checksums[algorithm] ?? (
                <>
                  <span className="hint">{L.md5NotComputed}</span>
                  {checksums.showFixChecksums && (
                    <>
                      {' '}
                      <button
                        type="button"
                        className="btn btn-link"
                        disabled={fixing}
                        aria-describedby={hintId}
                        onClick={() => fix()}
                      >
                        {L.fixChecksums}
                      </button>
                      <span id={hintId} className="visually-hidden">
                        {L.fixChecksumsHint}
                      </span>
                    </>
                  )}
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Counting a folder's files is a query of its own: asked for, not run on every click. */
function ArtifactCount() {
  const [count, request] = useUnit([$count, countRequested]);
  return (
    <>
      <div>
        <dt>{L.info.artifactsCount}</dt>
        <dd>
          {count ? (
            formatCount(count.artifactsCount)
          ) : (
            <button type="button" className="btn btn-link" onClick={() => request()}>
              {L.countArtifacts}
            </button>
          )}
        </dd>
      </div>
      {count && (
        <div>
          <dt>{L.info.artifactSize}</dt>
          <dd>{formatSize(count.artifactSize)}</dd>
        </div>
      )}
    </>
  );
}
