import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { RepositoryUsage } from '../../api/storageSummary';
import { chartBars, MAX_BARS } from './chartBars';
import { STORAGE_SUMMARY_LABELS } from './messages';
import { UsageChart } from './UsageChart';

const repo = (repoKey: string, usedSpace: number, percentage: number): RepositoryUsage => ({
  repoKey,
  repoType: 'LOCAL',
  packageType: 'Generic',
  foldersCount: 0,
  filesCount: 1,
  itemsCount: 1,
  usedSpace,
  percentage,
});

const repositories = [
  repo('libs-a', 4000, 38.1),
  repo('empty', 0, 0),
  repo('upstream-cache', 3000, 28.57),
  repo('libs-b', 3000, 28.57),
  repo('auto-trashcan', 500, 4.76),
];

const barTitles = (container: HTMLElement) =>
  [...container.querySelectorAll('g.usage-chart-bar > title')].map((t) => t.textContent);

describe('the space-per-repository chart', () => {
  it('draws a bar per repository, largest first, each titled with its size and share', () => {
    const { container } = render(<UsageChart repositories={repositories} />);
    expect(barTitles(container)).toEqual([
      'libs-a: 3.91 KB (38.1%)',
      'libs-b: 2.93 KB (28.57%)',
      'upstream-cache: 2.93 KB (28.57%)',
      'auto-trashcan: 500 bytes (4.76%)',
      'empty: 0 bytes (0%)',
    ]);
    const widths = [...container.querySelectorAll('g.usage-chart-bar rect')].map((r) =>
      Number(r.getAttribute('width')),
    );
    // Lengths in proportion to the largest bar.
    expect(widths[1] / widths[0]).toBeCloseTo(3000 / 4000);
    expect(widths[3] / widths[0]).toBeCloseTo(500 / 4000);
    expect(widths[4]).toBe(0);
  });

  it('is one image named by its title and description, with a legend in text', () => {
    render(<UsageChart repositories={repositories} />);
    // The name joins the title and the description, which lists every bar.
    screen.getByRole('img', {
      name: /^Space per repository libs-a: 3\.91 KB \(38\.1%\); libs-b: 2\.93 KB/,
    });
    const legend = screen.getByRole('list', { name: STORAGE_SUMMARY_LABELS.legend });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'libs-a 3.91 KB (38.1%)',
      'libs-b 2.93 KB (28.57%)',
      'upstream-cache 2.93 KB (28.57%)',
      'auto-trashcan 500 bytes (4.76%)',
      'empty 0 bytes (0%)',
    ]);
  });

  it('says so when no repository holds anything', () => {
    render(<UsageChart repositories={[repo('empty', 0, 0)]} />);
    screen.getByText(STORAGE_SUMMARY_LABELS.chartEmpty);
    expect(screen.queryByRole('img')).toBeNull();
  });
});

describe('chart bars', () => {
  it('sums the smallest repositories into one "Other" bar past the limit', () => {
    const many = Array.from({ length: MAX_BARS + 3 }, (_, i) => repo(`r${i}`, (i + 1) * 100, 1));
    const bars = chartBars(many);
    expect(bars).toHaveLength(MAX_BARS);
    expect(bars[0]).toMatchObject({ label: `r${MAX_BARS + 2}`, usedSpace: (MAX_BARS + 3) * 100 });
    // r0..r3 are the four smallest: 100 + 200 + 300 + 400.
    expect(bars[MAX_BARS - 1]).toMatchObject({
      label: 'Other (4 repositories)',
      usedSpace: 1000,
      percentage: 4,
    });
  });
});
