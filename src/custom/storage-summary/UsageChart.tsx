import { useId } from 'react';
import type { RepositoryUsage } from '../../api/storageSummary';
import { chartBars } from './chartBars';
import { formatPercent, formatSize } from './format';
import { STORAGE_SUMMARY_LABELS } from './messages';

const WIDTH = 640;
const LABEL_WIDTH = 170;
const VALUE_WIDTH = 110;
const BAR_AREA = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
const ROW_HEIGHT = 28;
const BAR_HEIGHT = 18;
const MAX_LABEL_CHARS = 20;

const shortLabel = (label: string) =>
  label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label;
const describe = (label: string, usedSpace: number, percentage: number) =>
  `${label}: ${formatSize(usedSpace)} (${formatPercent(percentage)})`;

/**
 * Space per repository as a horizontal bar chart in plain SVG (no charting library: the
 * console's bundle budget). The SVG is one image to assistive technology, named by its title
 * and description; each bar has a title (a tooltip on hover) and the legend beside it says
 * the same in text.
 */
export function UsageChart({ repositories }: { repositories: RepositoryUsage[] }) {
  const titleId = useId();
  const descId = useId();
  const bars = chartBars(repositories);
  const largest = Math.max(0, ...bars.map((bar) => bar.usedSpace));
  if (largest === 0) return <p>{STORAGE_SUMMARY_LABELS.chartEmpty}</p>;
  const height = bars.length * ROW_HEIGHT;
  return (
    <figure className="usage-chart">
      <svg
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
      >
        <title id={titleId}>{STORAGE_SUMMARY_LABELS.chartTitle}</title>
        <desc id={descId}>
          {bars.map((bar) => describe(bar.label, bar.usedSpace, bar.percentage)).join('; ')}
        </desc>
        {bars.map((bar, index) => {
          const y = index * ROW_HEIGHT;
          const barWidth = largest === 0 ? 0 : (bar.usedSpace / largest) * BAR_AREA;
          return (
            <g key={bar.label} className="usage-chart-bar">
              <title>{describe(bar.label, bar.usedSpace, bar.percentage)}</title>
              <text x={LABEL_WIDTH - 8} y={y + ROW_HEIGHT / 2} textAnchor="end" dy="0.35em">
                {shortLabel(bar.label)}
              </text>
              <rect
                x={LABEL_WIDTH}
                y={y + (ROW_HEIGHT - BAR_HEIGHT) / 2}
                width={barWidth}
                height={BAR_HEIGHT}
                rx={3}
                fill={bar.color}
              />
              <text x={LABEL_WIDTH + barWidth + 6} y={y + ROW_HEIGHT / 2} dy="0.35em">
                {formatSize(bar.usedSpace)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className="usage-chart-legend" aria-label={STORAGE_SUMMARY_LABELS.legend}>
          {bars.map((bar) => (
            <li key={bar.label}>
              <span className="usage-chart-swatch" style={{ background: bar.color }} aria-hidden />
              <span className="usage-chart-key">{bar.label}</span>{' '}
              <span>
                {formatSize(bar.usedSpace)} ({formatPercent(bar.percentage)})
              </span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
