import { useEffect, useState } from 'react';
import { useUnit } from 'effector-react';
import { TabBar } from '../../design/components/TabBar';
import type { Execution } from './api';
import { DISPLAY_STATES, RETENTION_LABELS as L } from './messages';
import {
  $monitoring,
  $monitoringError,
  $monitoringLoading,
  $range,
  monitoringOpened,
  rangeChanged,
  refreshClicked,
} from './model';
import { SummaryCards } from './SummaryCards';
import './retention.css';

type Kind = 'archive' | 'restore';
const C = L.executionColumns;

function ExecutionsTable({ rows, kind }: { rows: Execution[]; kind: Kind }) {
  if (rows.length === 0) return <p>{L.noExecutions}</p>;
  return (
    <table className="retention-table" aria-label={L.tabs[kind]}>
      <thead>
        <tr>
          {[C.id, C.start, C.status, C.policy, C.items, C.details].map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.executionId}>
            <td>{row.executionId}</td>
            <td>{new Date(row.startTime).toLocaleString()}</td>
            <td>{DISPLAY_STATES[row.state] ?? row.state}</td>
            <td>{row.policyName ?? '-'}</td>
            <td>{row.items}</td>
            <td>{row.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Administration > Services > Retention > Cold Storage Monitoring (spec 02 §2): the cold
 * store's statistics cards, and the archive and restore executions started in a date range.
 */
export default function ColdStorageMonitoringPage() {
  const [data, error, loading, range] = useUnit([
    $monitoring,
    $monitoringError,
    $monitoringLoading,
    $range,
  ]);
  const [tab, setTab] = useState<Kind>('archive');
  useEffect(() => monitoringOpened(), []);
  const date = (key: 'from' | 'to', label: string) => (
    <label className="retention-date">
      <span>{label}</span>
      <input
        type="date"
        value={range[key]}
        onChange={(event) => rangeChanged({ ...range, [key]: event.target.value })}
      />
    </label>
  );
  return (
    <section className="retention-page" aria-labelledby="cold-storage-title" aria-busy={loading}>
      <header className="page-header">
        <h1 id="cold-storage-title">{L.monitoringTitle}</h1>
        <button type="button" className="btn" onClick={() => refreshClicked()} disabled={loading}>
          {L.refresh}
        </button>
      </header>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <SummaryCards summary={data?.summary} />
      <div className="retention-range">
        {date('from', L.from)}
        {date('to', L.to)}
      </div>
      <TabBar
        label={L.monitoringTitle}
        names={['archive', 'restore'] as const}
        selected={tab}
        labelOf={(kind) => L.tabs[kind]}
        onSelect={setTab}
      >
        {data ? (
          <ExecutionsTable rows={data[tab]} kind={tab} />
        ) : (
          loading && <p role="status">{L.loading}</p>
        )}
      </TabBar>
    </section>
  );
}
