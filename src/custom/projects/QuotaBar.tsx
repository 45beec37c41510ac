import type { ProjectStorage } from '../../api/projects';
import { formatSize } from '../storage-summary/format';
import { PROJECT_LABELS as L } from './messages';

/** Used space against the quota, as a meter: full at the quota, amber past 80%. */
export function QuotaBar({ storage }: { storage: ProjectStorage }) {
  const hasQuota = storage.quotaBytes >= 0;
  const used = formatSize(storage.usedBytes);
  if (!hasQuota)
    return (
      <p className="quota-line">
        {L.used}: {used} ({L.noQuota})
      </p>
    );
  const share = storage.quotaBytes === 0 ? 1 : Math.min(1, storage.usedBytes / storage.quotaBytes);
  return (
    <div className="quota">
      <p className="quota-line">
        {L.used}: {L.ofQuota(used, formatSize(storage.quotaBytes))} ({Math.round(share * 100)}%)
      </p>
      <meter
        className="quota-meter"
        aria-label={L.storage}
        min={0}
        max={storage.quotaBytes}
        low={storage.quotaBytes * 0.8}
        high={storage.quotaBytes * 0.95}
        optimum={0}
        value={storage.usedBytes}
      />
    </div>
  );
}
