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
 * The percentile bootstrap 95 % interval of the median of `values`: the pairs are drawn again
 * with replacement `resamples` times, and the 2.5th and 97.5th percentiles of those medians
 * are the interval's ends.
 */
export function bootstrapMedianInterval(values, { resamples = 10_000, seed = 28 } = {}) {
  const random = seededRandom(seed);
  const medians = new Float64Array(resamples);
  const sample = new Array(values.length);
  for (let round = 0; round < resamples; round++) {
    for (let i = 0; i < values.length; i++)
      sample[i] = values[Math.floor(random() * values.length)];
    medians[round] = median(sample);
  }
  medians.sort();
  return [medians[Math.floor(resamples * 0.025)], medians[Math.ceil(resamples * 0.975) - 1]];
}

/** A median of ratios with its interval, as the benchmark prints it: `0.99 [0.97, 1.01]`. */
export function summarizeRatios(ratios) {
  const [low, high] = bootstrapMedianInterval(ratios);
  return { median: median(ratios), low, high };
}

export const formatSummary = ({ median: value, low, high }) =>
  `${value.toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}]`;
