import { useEffect, useState } from 'react';
import { useUnit } from 'effector-react';
import { Link, useParams } from 'react-router-dom';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import type { BucketReport } from './api';
import { BUCKET_LABELS as L, BUCKETS_PATH } from './messages';
import { $report, detachConfirmed, reportOpened } from './model';

interface DeploymentRow {
  id: string;
  name: string;
  status: string;
  licenses: number;
}

/**
 * The deployments the report shows: those Depot knows, and any the bucket still counts
 * licenses on that it no longer knows (its unknown usage), so that they can be detached too.
 */
function deploymentRows(report: BucketReport): DeploymentRow[] {
  const unknown = report.attachments
    .filter((attachment) => !report.deployments.some((d) => d.id === attachment.deployment))
    .map((attachment) => ({
      id: attachment.deployment,
      name: attachment.deployment,
      status: 'UNKNOWN',
      licenses: attachment.licenses,
    }));
  return [...report.deployments, ...unknown];
}

/** The bucket report (spec 01 §2, "Report"), with a detach per deployment holding licenses. */
export function BucketReportPage() {
  const { licenseBucketID = '' } = useParams();
  const [report, open, detach] = useUnit([$report, reportOpened, detachConfirmed]);
  const [detaching, setDetaching] = useState<DeploymentRow | null>(null);
  useEffect(() => {
    open(licenseBucketID);
  }, [open, licenseBucketID]);
  if (!report) return null;
  const rows: [string, string | number][] = [
    [L.totalLicenses, report.totalLicenses],
    [L.bucketIdentifier, report.identifier],
    [L.columns.expiryDate, report.expiryDate],
    [L.maxConsumed, report.maxConsumed],
    [L.unknownUsage, report.unknownUsage],
    [L.pipelinesNodes, report.pipelinesNodes],
    [L.splits, report.splits.map((s) => `${s.name}: ${s.used} / ${s.size}`).join(', ') || L.none],
    [L.totalProjects, report.totalProjects],
  ];
  return (
    <section aria-labelledby="report-title" className="settings-page">
      <h1 id="report-title">{L.reportTitle(report.name)}</h1>
      <dl className="card">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <table className="table" aria-label={L.deployments}>
        <caption>{L.deployments}</caption>
        <thead>
          <tr>
            <th>{L.deployment}</th>
            <th>{L.status}</th>
            <th>{L.licenses}</th>
            <th>{L.actions}</th>
          </tr>
        </thead>
        <tbody>
          {deploymentRows(report).map((deployment) => (
            <tr key={deployment.id}>
              <td>{deployment.name}</td>
              <td>{deployment.status}</td>
              <td>{deployment.licenses}</td>
              <td>
                {deployment.licenses > 0 && (
                  <button
                    type="button"
                    className="btn btn-link"
                    aria-label={`${L.detach} ${deployment.name}`}
                    onClick={() => setDetaching(deployment)}
                  >
                    {L.detach}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Link to={BUCKETS_PATH}>{L.back}</Link>
      {detaching && (
        <ConfirmDialog
          title={L.detachTitle}
          text={L.detachText(detaching.licenses, detaching.name, report.name)}
          confirmLabel={L.detach}
          cancelLabel={L.cancel}
          danger
          onConfirm={() => {
            detach({ id: report.identifier, deployments: [detaching.id] });
            setDetaching(null);
          }}
          onCancel={() => setDetaching(null)}
        />
      )}
    </section>
  );
}
