import type { RepositoryUsage } from '../../api/storageSummary';
import { STORAGE_SUMMARY_LABELS } from './messages';

export interface ChartBar {
  /** A repository key, or the "Other (n repositories)" bar. */
  label: string;
  usedSpace: number;
  percentage: number;
  color: string;
}

/** Distinct in light and dark themes, and for the common colour-vision deficiencies (Okabe-Ito). */
export const BAR_COLORS = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#f0e442',
  '#7a6fbf',
  '#999999',
  '#117733',
];
/** One bar per repository up to this many; the rest share one "Other" bar. */
export const MAX_BARS = 10;

/**
 * The chart's bars: repositories largest first (by key on a tie), at most MAX_BARS, and when
 * there are more, the smallest summed up as one "Other" bar in the last place.
 */
export function chartBars(repositories: RepositoryUsage[], maxBars = MAX_BARS): ChartBar[] {
  const sorted = [...repositories].sort(
    (a, b) => b.usedSpace - a.usedSpace || a.repoKey.localeCompare(b.repoKey),
  );
  const fits = sorted.length <= maxBars;
  const shown = fits ? sorted : sorted.slice(0, maxBars - 1);
  const bars: ChartBar[] = shown.map((repo, index) => ({
    label: repo.repoKey,
    usedSpace: repo.usedSpace,
    percentage: repo.percentage,
    color: BAR_COLORS[index % BAR_COLORS.length],
  }));
  if (!fits) {
    const rest = sorted.slice(maxBars - 1);
    bars.push({
      label: STORAGE_SUMMARY_LABELS.otherRepositories(rest.length),
      usedSpace: rest.reduce((sum, repo) => sum + repo.usedSpace, 0),
      // Rounded shares of the rest, summed: good to the second decimal, as the rows are.
      percentage: Math.round(rest.reduce((sum, repo) => sum + repo.percentage, 0) * 100) / 100,
      color: BAR_COLORS[BAR_COLORS.length - 2],
    });
  }
  return bars;
}
