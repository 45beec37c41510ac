import type { ReactNode } from 'react';
import type { StorageSummary } from '../../api/storageSummary';
import { deduplicationSaving, percentOf } from './figures';
import { formatCount, formatPercent, formatSize } from './format';
import { STORAGE_SUMMARY_LABELS as L } from './messages';

type Figure = [label: string, value: string];

function Card({
  title,
  figures,
  children,
  wide = false,
}: {
  title: string;
  figures: Figure[];
  children?: ReactNode;
  wide?: boolean;
}) {
  return (
    <section className={`card summary-card${wide ? ' summary-card-wide' : ''}`} aria-label={title}>
      <h2>{title}</h2>
      <dl>
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {children}
    </section>
  );
}

/** A used/free bar of the file store's disk, as a meter assistive technology can read. */
function DiskBar({ used, total }: { used: number; total: number }) {
  const percent = percentOf(used, total);
  return (
    <div
      className="disk-bar"
      role="meter"
      aria-label={L.diskUse}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${L.used} ${formatSize(used)} of ${formatSize(total)} (${formatPercent(percent)})`}
    >
      <div className="disk-bar-used" style={{ width: `${percent}%` }} />
    </div>
  );
}

/** The cards above the chart: binaries against artifacts, what deduplication saves, the disk. */
export function SummaryCards({ summary }: { summary: StorageSummary }) {
  const { binariesSummary: b, fileStoreSummary: disk } = summary;
  const saving = deduplicationSaving(b);
  const foldersCount = b.itemsCount - b.artifactsCount;
  return (
    <div className="summary-cards">
      <Card
        title={L.binaries}
        figures={[
          [L.count, formatCount(b.binariesCount)],
          [L.size, formatSize(b.binariesSize)],
        ]}
      />
      <Card
        title={L.artifacts}
        figures={[
          [L.count, formatCount(b.artifactsCount)],
          [L.size, formatSize(b.artifactsSize)],
        ]}
      />
      <Card
        title={L.deduplication}
        figures={[
          [L.saves, `${formatSize(saving.bytes)} (${formatPercent(saving.percent)})`],
          [L.optimization, formatPercent(b.optimization)],
        ]}
      />
      <Card
        title={L.items}
        figures={[
          [L.items, formatCount(b.itemsCount)],
          [L.files, formatCount(b.artifactsCount)],
          [L.folders, formatCount(foldersCount)],
        ]}
      />
      <Card
        wide
        title={L.fileStore}
        figures={[
          [L.storageType, disk.storageType],
          [L.directory, disk.storageDirectory],
          [L.used, formatSize(disk.usedSpace)],
          [L.free, formatSize(disk.freeSpace)],
          [L.total, formatSize(disk.totalSpace)],
        ]}
      >
        <DiskBar used={disk.usedSpace} total={disk.totalSpace} />
      </Card>
    </div>
  );
}
