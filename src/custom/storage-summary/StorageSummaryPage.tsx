import { lazy, Suspense, useEffect } from 'react';
import { useUnit } from 'effector-react';
import { $error, $loading, $summary, pageMounted, refreshClicked } from './model';
import { STORAGE_SUMMARY_LABELS as L, TOTAL_ROW_KEY } from './messages';
import { SummaryCards } from './SummaryCards';
import { UsageChart } from './UsageChart';
import './storage-summary.css';

/** AG Grid loads with the table, after the figures above it are on screen. */
const RepositoriesTable = lazy(() => import('./RepositoriesTable'));

/**
 * Administration > Monitoring > Storage Summary: binaries against artifacts, what
 * deduplication saves, the file store's disk, space per repository as a chart and a table.
 * Figures are live; Refresh asks again.
 */
export default function StorageSummaryPage() {
  const [summary, loading, error, mounted, refresh] = useUnit([
    $summary,
    $loading,
    $error,
    pageMounted,
    refreshClicked,
  ]);
  useEffect(() => mounted(), [mounted]);

  const rows = summary?.repositoriesSummaryList ?? [];
  const repositories = rows.filter((row) => row.repoKey !== TOTAL_ROW_KEY);
  const total = rows.find((row) => row.repoKey === TOTAL_ROW_KEY);
  return (
    <section
      className="storage-summary"
      aria-labelledby="storage-summary-title"
      aria-busy={loading}
    >
      <header className="page-header">
        <h1 id="storage-summary-title">{L.title}</h1>
        <button type="button" className="btn" onClick={() => refresh()} disabled={loading}>
          {L.refresh}
        </button>
      </header>
      {error && (
        <div role="alert" className="error-text">
          <strong>{L.fetchFailed}</strong>
          {error !== L.fetchFailed && <p>{error}</p>}
        </div>
      )}
      {loading && !summary && <p role="status">{L.loading}</p>}
      {summary && (
        <>
          <SummaryCards summary={summary} />
          <section className="card" aria-labelledby="storage-summary-chart">
            <h2 id="storage-summary-chart">{L.chartTitle}</h2>
            <UsageChart repositories={repositories} />
          </section>
          <section aria-labelledby="storage-summary-repositories">
            <h2 id="storage-summary-repositories">{L.repositories}</h2>
            <Suspense fallback={<p role="status">{L.loading}</p>}>
              <RepositoriesTable repositories={repositories} total={total} loading={loading} />
            </Suspense>
          </section>
        </>
      )}
    </section>
  );
}
