import type { BuildRetention } from './build-info.ts';
import type { BuildRow } from './queries.ts';

/**
 * The builds an upload's `buildRetention` discards (docs/builds.md, "Retention"): the newest
 * `count` builds of the name are kept (the new one among them), and none started before
 * `minimumBuildDate`; numbers in `buildNumbersNotToBeDiscarded` are always kept. `count` -1
 * or absent keeps any number.
 */
export function retentionDiscards(
  existing: BuildRow[],
  uploaded: { number: string; startedAt: Date },
  retention: BuildRetention,
): BuildRow[] {
  const keep = new Set(retention.buildNumbersNotToBeDiscarded ?? []);
  const minimum = minimumDate(retention.minimumBuildDate);
  const all = [...existing.map((row) => ({ row, at: row.started_at.getTime() }))];
  const ordered = [...all, { row: undefined, at: uploaded.startedAt.getTime() }].sort(
    (a, b) => b.at - a.at,
  );
  const count = retention.count ?? -1;
  return ordered.flatMap((entry, index) => {
    if (!entry.row || keep.has(entry.row.number)) return [];
    const beyondCount = count >= 0 && index >= count;
    const tooOld = minimum !== undefined && entry.at < minimum;
    return beyondCount || tooOld ? [entry.row] : [];
  });
}

function minimumDate(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = typeof value === 'number' ? value : Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
