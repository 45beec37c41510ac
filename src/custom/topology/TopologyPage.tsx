import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import type { ClusterNode } from '../../api/systemLogs';
import { $footer } from '../../shell/session/model';
import { formatCount, formatSize } from '../storage-summary/format';
import {
  $nodes,
  $nodesError,
  $storage,
  $storageError,
  deploymentStatus,
  pageMounted,
  partStatus,
  statusMessage,
  type TopologyStatus,
} from './model';
import { HOME_DEPLOYMENT_ID, TOPOLOGY_LABELS as L } from './messages';
import './topology.css';

const Status = ({ status }: { status: TopologyStatus | string }) => (
  <span className={`status-badge status-${status.toLowerCase()}`}>{status}</span>
);

/**
 * The topology of this Depot deployment (spec 03 "Topology and service status"): the
 * deployment, its nodes from the cluster heartbeats, the database and the filestore with
 * the storage summary's figures; no replication or federation is configured in Depot. The
 * map is laid-out boxes of headings and lists, so it reads as text too.
 */
export default function TopologyPage() {
  const { id } = useParams();
  const [nodes, nodesError, storageError, footer] = useUnit([
    $nodes,
    $nodesError,
    $storageError,
    $footer,
  ]);
  const mounted = useUnit(pageMounted);
  useEffect(() => mounted(), [mounted]);
  const name = footer?.serverName || 'Depot';
  const status = deploymentStatus(nodes);
  const online = (nodes ?? []).filter((node) => node.status === 'ONLINE').length;
  return (
    <section className="topology" aria-labelledby="topology-title">
      <header className="page-header">
        <h1 id="topology-title">{L.title}</h1>
      </header>
      {id !== undefined && id !== HOME_DEPLOYMENT_ID && <p role="status">{L.notInList}</p>}
      {[nodesError, storageError].filter(Boolean).map((error) => (
        <p key={error} className="error-text" role="alert">
          {error}
        </p>
      ))}
      <p className="topology-small-screen">{L.smallScreen}</p>
      <p className="topology-summary">
        {nodes ? L.summary(name, status, online, nodes.length) : L.loading}
      </p>
      {statusMessage(status) && <p className="field-help">{statusMessage(status)}</p>}
      <div className="topology-map">
        <section className="topology-deployment" aria-labelledby="deployment-title">
          <h2 id="deployment-title">
            {L.deployment}: {name} <span className="field-help">({L.home})</span>{' '}
            <Status status={status} />
          </h2>
          <h3>{L.nodes}</h3>
          <ul className="topology-nodes">
            {(nodes ?? []).map((node) => (
              <NodeBox key={node.node_id} node={node} />
            ))}
          </ul>
          <div className="topology-parts">
            <DatabaseBox />
            <FilestoreBox />
          </div>
          <Link to="/admin/monitoring/service-status">{L.serviceStatus}</Link>
        </section>
        <section className="topology-connections" aria-label={`${L.replication}, ${L.federation}`}>
          <dl>
            <dt>{L.replication}</dt>
            <dd>{L.noneConfigured}</dd>
            <dt>{L.federation}</dt>
            <dd>{L.noneConfigured}</dd>
          </dl>
        </section>
      </div>
    </section>
  );
}

function NodeBox({ node }: { node: ClusterNode }) {
  return (
    <li className="topology-box">
      <strong>
        {L.node} {node.node_id}
      </strong>{' '}
      {node.local && <span className="field-help">{L.thisNode}</span>}{' '}
      <Status status={node.status} />
      <dl>
        <dt>{L.host}</dt>
        <dd>{node.host}</dd>
        <dt>{L.version}</dt>
        <dd>{node.version}</dd>
      </dl>
    </li>
  );
}

function DatabaseBox() {
  const nodes = useUnit($nodes);
  return (
    <div className="topology-box">
      <strong>{L.database}</strong> <Status status={partStatus(nodes, 'database')} />
    </div>
  );
}

function FilestoreBox() {
  const [nodes, storage] = useUnit([$nodes, $storage]);
  const disk = storage?.fileStoreSummary;
  const binaries = storage?.binariesSummary;
  return (
    <div className="topology-box">
      <strong>{L.filestore}</strong> <Status status={partStatus(nodes, 'filestore')} />
      {disk && binaries && (
        <ul>
          <li>{L.diskUsed(formatSize(disk.usedSpace), formatSize(disk.totalSpace))}</li>
          <li>{L.free(formatSize(disk.freeSpace))}</li>
          <li>
            {L.binaries(formatCount(binaries.binariesCount), formatSize(binaries.binariesSize))}
          </li>
          <li>
            {L.artifacts(formatCount(binaries.artifactsCount), formatSize(binaries.artifactsSize))}
          </li>
        </ul>
      )}
      <Link to="/admin/monitoring/storage-summary">{L.storageSummary}</Link>
    </div>
  );
}
