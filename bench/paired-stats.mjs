// The statistics of paired benchmark rounds (bench/metrics-cost.mjs): the median of per-pair
// ratios and its bootstrap interval, which says how far the median could move by chance.

/** The median; of an even count, the mean of the two middle values. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * A small seeded generator (mulberry32): the interval printed is the same every time the same
 * rounds are analysed, so a reader can recompute it from the printed ratios.
 */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The percentile bootstrap 95 % interval of the median of `values`: the values are drawn
 * again with replacement `resamples` times, and the 2.5th and 97.5th percentiles of those
 * medians are the interval's ends. With `groups` (a group per value: the processes the value
 * was measured on), the draw is in two stages, groups first and values within each group
 * drawn: values measured on the same processes share those processes' own offset, and
 * drawing them as if independent would make the interval too narrow.
 */
export function bootstrapMedianInterval(values, { groups, resamples = 10_000, seed = 28 } = {}) {
  const random = seededRandom(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const clusters = groups ? [...groupValues(values, groups).values()] : [values];
  const medians = new Float64Array(resamples);
  for (let round = 0; round < resamples; round++) {
    const sample = [];
    for (let c = 0; c < clusters.length; c++) {
      const cluster = groups ? pick(clusters) : clusters[c];
      for (let i = 0; i < cluster.length; i++) sample.push(pick(cluster));
    }
    medians[round] = median(sample);
  }
  medians.sort();
  return [medians[Math.floor(resamples * 0.025)], medians[Math.ceil(resamples * 0.975) - 1]];
}

function groupValues(values, groups) {
  const byGroup = new Map();
  values.forEach((value, i) => byGroup.set(groups[i], [...(byGroup.get(groups[i]) ?? []), value]));
  return byGroup;
}

/**
 * A median of ratios with its interval, as the benchmark prints it: `0.99 [0.97, 1.01]`;
 * `groups` as bootstrapMedianInterval takes them.
 */
export function summarizeRatios(ratios, groups) {
  const [low, high] = bootstrapMedianInterval(ratios, { groups });
  return { median: median(ratios), low, high };
}

export const formatSummary = ({ median: value, low, high }) =>
  `${value.toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}]`;
