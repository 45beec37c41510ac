import { useEffect, useRef } from 'react';
import { useUnit } from 'effector-react';
import { Link } from 'react-router-dom';
import { SelectField } from '../../design/components/SelectField';
import {
  $countdown,
  $dataError,
  $failure,
  $lastModified,
  $lastUpdated,
  $loadingMore,
  $logId,
  $logs,
  $nodeId,
  $nodes,
  $paused,
  $service,
  $text,
  logSelected,
  nodeSelected,
  pageMounted,
  pauseClicked,
  refreshNowClicked,
  resumeClicked,
  secondTicked,
  serviceSelected,
} from './model';
import { LOG_SERVICES, SUPPORT_ZONE_PATH, SYSTEM_LOGS_LABELS as L } from './messages';
import './system-logs.css';

const localTime = (value: number | string | null) =>
  value === null ? '—' : new Date(value).toLocaleString();

/** The live log viewer (spec 03 "Live log viewer"; docs/logs.md). */
export default function SystemLogsPage() {
  const [service, nodes, nodeId, logs, logId, text, failure, dataError] = useUnit([
    $service,
    $nodes,
    $nodeId,
    $logs,
    $logId,
    $text,
    $failure,
    $dataError,
  ]);
  const [paused, countdown, loadingMore, lastModified, lastUpdated] = useUnit([
    $paused,
    $countdown,
    $loadingMore,
    $lastModified,
    $lastUpdated,
  ]);
  const events = useUnit({
    pageMounted,
    serviceSelected,
    nodeSelected,
    logSelected,
    pauseClicked,
    resumeClicked,
    refreshNowClicked,
    secondTicked,
  });
  const area = useRef<HTMLPreElement>(null);

  const { pageMounted: mounted, secondTicked: ticked } = events;
  useEffect(() => {
    mounted();
    const timer = setInterval(ticked, 1000);
    return () => clearInterval(timer);
  }, [mounted, ticked]);

  // The area follows the end as lines arrive.
  useEffect(() => {
    if (area.current) area.current.scrollTop = area.current.scrollHeight;
  }, [text]);

  return (
    <section className="system-logs" aria-labelledby="system-logs-title">
      <header className="page-header">
        <h1 id="system-logs-title">{L.title}</h1>
      </header>
      <div className="system-logs-pickers">
        <SelectField
          label={L.service}
          value={service}
          options={LOG_SERVICES}
          onChange={events.serviceSelected}
        />
        <SelectField
          label={L.node}
          value={nodeId}
          options={nodes.map((node) => ({ value: node.node_id, label: node.node_id }))}
          onChange={events.nodeSelected}
        />
        <SelectField
          label={L.logFile}
          value={logId}
          options={logs.map((log) => ({ value: log, label: log }))}
          onChange={events.logSelected}
        />
      </div>
      <div className="system-logs-toolbar">
        <span role="status" aria-live="off" className="system-logs-countdown">
          {paused ? L.paused : L.nextRefresh(countdown)}
        </span>
        {paused ? (
          <button type="button" className="btn" onClick={() => events.resumeClicked()}>
            {L.resume}
          </button>
        ) : (
          <button type="button" className="btn" onClick={() => events.pauseClicked()}>
            {L.pause}
          </button>
        )}
        <button type="button" className="btn" onClick={() => events.refreshNowClicked()}>
          {L.refreshNow}
        </button>
        {loadingMore && (
          <span className="system-logs-blinker" role="status" aria-label={L.loading} />
        )}
        <dl className="system-logs-times">
          <dt>{L.lastModified}</dt>
          <dd data-testid="log-last-modified">{localTime(lastModified)}</dd>
          <dt>{L.lastUpdated}</dt>
          <dd data-testid="log-last-updated">{localTime(lastUpdated)}</dd>
        </dl>
      </div>
      {failure ? (
        <div className="system-logs-empty">
          <p role="alert" className="error-text">
            {failure}
          </p>
          <p>{L.noData}</p>
        </div>
      ) : (
        <>
          {dataError && (
            <p role="alert" className="error-text">
              {dataError}
            </p>
          )}
          {text === '' ? (
            <p className="system-logs-empty">{dataError ? L.noData : L.waiting}</p>
          ) : null}
          <pre
            ref={area}
            className="system-logs-area"
            aria-label={L.logArea}
            tabIndex={0}
            hidden={text === ''}
          >
            {text}
          </pre>
        </>
      )}
      <p className="system-logs-support">
        <Link to={SUPPORT_ZONE_PATH}>{L.supportZone}</Link>
      </p>
    </section>
  );
}
