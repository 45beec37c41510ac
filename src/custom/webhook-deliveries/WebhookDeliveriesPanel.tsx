import { useEffect, useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { AgGridReact } from 'ag-grid-react';
import {
  ClientSideRowModelModule,
  ModuleRegistry,
  PaginationModule,
  type ColDef,
  type ICellRendererParams,
} from 'ag-grid-community';
import { depotGridLocaleText, depotGridTheme } from '../../design/agGridTheme';
import type { Delivery } from './api';
import { DELIVERY_LABELS as L, deliveryStatus } from './messages';
import {
  $history,
  historyClosed,
  historyRequested,
  loadHistoryFx,
  redeliverClicked,
  redeliverFx,
  resumeClicked,
  resumeFx,
} from './model';
import './webhook-deliveries.css';

ModuleRegistry.registerModules([ClientSideRowModelModule, PaginationModule]);

/** How often the open history asks again: retries and new events show up by themselves. */
const REFRESH_MS = 5000;

const time = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '');
const lastTry = (delivery: Delivery | undefined) => delivery?.tries.at(-1);

function columns(onRedeliver: (delivery: Delivery) => void, busy: boolean): ColDef<Delivery>[] {
  return [
    {
      colId: 'time',
      headerName: L.time,
      width: 180,
      valueGetter: ({ data }) => time(data?.created),
    },
    { field: 'event', headerName: L.event, width: 170 },
    {
      colId: 'status',
      headerName: L.status,
      width: 170,
      valueGetter: ({ data }) => data && deliveryStatus(data),
    },
    {
      colId: 'responseCode',
      headerName: L.responseCode,
      width: 130,
      valueGetter: ({ data }) => lastTry(data)?.status ?? '',
    },
    {
      colId: 'responseTime',
      headerName: L.responseTime,
      width: 130,
      valueGetter: ({ data }) => {
        const attempt = lastTry(data);
        return attempt ? L.milliseconds(attempt.durationMs) : '';
      },
    },
    {
      colId: 'response',
      headerName: L.response,
      flex: 1,
      minWidth: 200,
      tooltipValueGetter: ({ value }) => String(value ?? ''),
      valueGetter: ({ data }) => {
        const attempt = lastTry(data);
        return attempt?.response ?? attempt?.error ?? data?.lastError ?? '';
      },
    },
    { field: 'attempts', headerName: L.attempts, width: 110 },
    {
      colId: 'redeliver',
      headerName: '',
      width: 120,
      sortable: false,
      cellRenderer: ({ data }: ICellRendererParams<Delivery>) =>
        data &&
        data.state !== 'pending' && (
          <button
            type="button"
            className="btn btn-link"
            disabled={busy}
            aria-label={L.redeliverRow(data.event, time(data.created))}
            onClick={() => onRedeliver(data)}
          >
            {L.redeliver}
          </button>
        ),
    },
  ];
}

/**
 * Under a webhook's edit form: what was sent to it, newest first, with the receiver's
 * answers, Redeliver, and the pause with its reason and Resume (docs/webhooks.md).
 */
export default function WebhookDeliveriesPanel() {
  const key = useParams().key ?? '';
  const [history, loading, requested, closed] = useUnit([
    $history,
    loadHistoryFx.pending,
    historyRequested,
    historyClosed,
  ]);
  const [redeliver, redelivering, resume, resuming] = useUnit([
    redeliverClicked,
    redeliverFx.pending,
    resumeClicked,
    resumeFx.pending,
  ]);
  useEffect(() => {
    requested(key);
    const timer = setInterval(() => requested(key), REFRESH_MS);
    return () => {
      clearInterval(timer);
      closed();
    };
  }, [key, requested, closed]);
  const columnDefs = useMemo(
    () => columns((delivery) => redeliver({ key, deliveryId: delivery.id }), redelivering),
    [key, redeliver, redelivering],
  );

  return (
    <section className="card" aria-labelledby="deliveries-title">
      <header className="page-header">
        <h2 id="deliveries-title">{L.title}</h2>
        <button type="button" className="btn" disabled={loading} onClick={() => requested(key)}>
          {L.refresh}
        </button>
      </header>
      {history?.paused && (
        <div role="status" className="delivery-paused">
          <strong>{L.paused}</strong> {L.pausedSince(time(history.paused.at))}{' '}
          {history.paused.reason}{' '}
          <button type="button" className="btn" disabled={resuming} onClick={() => resume(key)}>
            {L.resume}
          </button>
        </div>
      )}
      {history === null ? (
        <p role="status">{L.loading}</p>
      ) : history.deliveries.length === 0 ? (
        <p role="status">{L.empty}</p>
      ) : (
        <AgGridReact<Delivery>
          theme={depotGridTheme}
          localeText={depotGridLocaleText}
          rowData={history.deliveries}
          columnDefs={columnDefs}
          getRowId={({ data }) => data.id}
          pagination
          paginationPageSize={25}
          paginationPageSizeSelector={false}
          domLayout="autoHeight"
          // Every column is in the page, so Redeliver is reachable whatever the width.
          suppressColumnVirtualisation
        />
      )}
    </section>
  );
}
