import { useEffect } from 'react';
import { useUnit } from 'effector-react';
import type { ClusterNode } from '../../api/systemLogs';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import {
  $loaded,
  $removing,
  $services,
  pageMounted,
  removeCancelled,
  removeClicked,
  removeConfirmed,
} from './model';
import { humanUptime, SERVICE_NAMES, SERVICE_STATUS_LABELS as L } from './messages';
import './service-status.css';

const HEALTH_PARTS = [
  ['database', L.database],
  ['filestore', L.filestore],
  ['jobs', L.jobs],
] as const;

function NodeRow({ node, onRemove }: { node: ClusterNode; onRemove: (n: ClusterNode) => void }) {
  const service = Object.values(node.micro_services)[0];
  return (
    <tr>
      <th scope="row">
        {node.node_id} {node.local && <span className="field-help">{L.thisNode}</span>}
      </th>
      <td>
        <span className={`status-badge status-${node.status.toLowerCase()}`}>{node.status}</span>
      </td>
      <td>{node.host}</td>
      <td>{node.version}</td>
      <td>{service ? new Date(service.last_heartbeat).toLocaleString() : '—'}</td>
      <td>{service ? humanUptime(service.uptime) : '—'}</td>
      {HEALTH_PARTS.map(([part]) => (
        <td key={part}>
          <span className={`status-badge status-${(node.health[part] ?? '').toLowerCase()}`}>
            {node.health[part] ?? '—'}
          </span>
        </td>
      ))}
      <td>
        {node.status !== 'ONLINE' && (
          <button
            type="button"
            className="btn btn-danger"
            aria-label={`${L.remove} ${node.node_id}`}
            onClick={() => onRemove(node)}
          >
            {L.remove}
          </button>
        )}
      </td>
    </tr>
  );
}

/** Services and their nodes (spec 03 "Topology and service status"; docs/service-status.md). */
export default function ServiceStatusPage() {
  const [services, loaded, removing] = useUnit([$services, $loaded, $removing]);
  const events = useUnit({ pageMounted, removeClicked, removeConfirmed, removeCancelled });
  const { pageMounted: mounted } = events;
  useEffect(() => mounted(), [mounted]);

  return (
    <section className="service-status" aria-labelledby="service-status-title">
      <header className="page-header">
        <h1 id="service-status-title">{L.title}</h1>
      </header>
      {loaded && services.length === 0 && <p>{L.noServices}</p>}
      {services.map(([serviceId, nodes]) => (
        <section key={serviceId} className="card" aria-labelledby={`service-${serviceId}`}>
          <h2 id={`service-${serviceId}`}>{SERVICE_NAMES[serviceId] ?? serviceId}</h2>
          <table className="service-status-table">
            <thead>
              <tr>
                <th scope="col">{L.node}</th>
                <th scope="col">{L.status}</th>
                <th scope="col">{L.host}</th>
                <th scope="col">{L.version}</th>
                <th scope="col">{L.lastHeartbeat}</th>
                <th scope="col">{L.uptime}</th>
                {HEALTH_PARTS.map(([part, label]) => (
                  <th scope="col" key={part}>
                    {label}
                  </th>
                ))}
                <th scope="col">{L.actions}</th>
              </tr>
            </thead>
            <tbody>
              {nodes.map((node) => (
                <NodeRow key={node.node_id} node={node} onRemove={events.removeClicked} />
              ))}
            </tbody>
          </table>
        </section>
      ))}
      {removing && (
        <ConfirmDialog
          title={L.removeTitle}
          text={L.removeText(removing.node_id)}
          confirmLabel={L.remove}
          cancelLabel={L.cancel}
          danger
          onConfirm={() => events.removeConfirmed()}
          onCancel={() => events.removeCancelled()}
        />
      )}
    </section>
  );
}
