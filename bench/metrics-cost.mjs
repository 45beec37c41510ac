// What Depot's metrics cost a 10 KiB download (bench/storage.mjs; docs/metrics.md, "Cost";
// goal: rate with metrics / rate without >= 0.95). Three Depots set up alike: `on` with
// metrics, `off` and `control` with DEPOT_METRICS=false. All three are warmed, then take
// many short wrk rounds in turns, one round each per block, the blocks cycling through the
// six orders of the three: each side runs first, second and third equally often, and of any
// two sides each runs before the other in half the blocks, so a load that drifts during the
// run weighs on all alike (the ABBA order of a paired comparison, for three).
// Each block gives two ratios measured a few seconds apart: on/off (the metrics' cost) and
// control/off (an A/A control: two identical servers, whose ratio is 1 but for noise). Their
// medians with bootstrap 95 % intervals are printed: the A/A interval is the noise floor of
// this run, and the A/B interval says whether the goal is met, missed, or not resolved.
// Beside the rates, the servers' CPU per request from /proc, which depends much less on how
// wrk and the servers are scheduled, and wrk's own CPU, to see it is not the limit.
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { formatSummary, median, summarizeRatios } from './paired-stats.mjs';
import { wrkRound } from './wrk.mjs';

const GOAL = 0.95;
const SIDES = ['on', 'off', 'control'];
const ORDERS = [
  ['on', 'off', 'control'],
  ['control', 'off', 'on'],
  ['off', 'control', 'on'],
  ['on', 'control', 'off'],
  ['control', 'on', 'off'],
  ['off', 'on', 'control'],
];
const WARMUP_PASSES = 2;

/**
 * Connections to or from `port` the kernel holds in TIME_WAIT: each was closed in the last
 * minute. With keep-alive, a wrk run closes its own connections once, at its end.
 */
function closedConnections(port) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, local, remote, state]) =>
        state === '06' && [local, remote].some((address) => address?.endsWith(`:${hexPort}`)),
    ).length;
}

/** Warms every side (JIT, the download's caches) and checks the connections are kept. */
function warmUp(sides, seconds, connections) {
  const warmupRequests = Object.fromEntries(SIDES.map((side) => [side, 0]));
  for (let pass = 0; pass < WARMUP_PASSES; pass++)
    for (const side of SIDES)
      warmupRequests[side] += wrkRound({ ...sides[side], seconds, connections }).requests;
  for (const side of SIDES) {
    const closed = closedConnections(sides[side].port);
    // Without keep-alive each request would close its connection: thousands, not tens.
    if (closed > warmupRequests[side] / 100)
      throw new Error(
        `${side}: ${closed} connections closed for ${warmupRequests[side]} requests: keep-alive is not holding`,
      );
    console.log(
      `  warm-up ${side}: ${warmupRequests[side]} requests over ${closed} connections closed (keep-alive held)`,
    );
  }
}

const micros = (round) => ((round.serverCpu / round.requests) * 1e6).toFixed(1);

function logBlock(number, label, rounds) {
  console.log(
    `  block ${String(number).padStart(2)} (${label}): ${SIDES.map((side) => `${side} ${Math.round(rounds[side].rate)} req/s ${micros(rounds[side])} µs`).join(', ')}; on/off ${(rounds.on.rate / rounds.off.rate).toFixed(3)}, control/off ${(rounds.control.rate / rounds.off.rate).toFixed(3)}`,
  );
}

/**
 * Blocks of turns: in each, the three sides' rounds one after the other, each side with the
 * machine to itself but for the rest of the machine's load. Answers each block's rounds by
 * side, its wall-clock seconds and wrk's CPU seconds.
 */
function runBlocksInTurns(sides, blocks, seconds, connections, firstBlock = 0) {
  const measured = [];
  for (let block = firstBlock; block < firstBlock + blocks; block++) {
    const order = ORDERS[block % ORDERS.length];
    const rounds = {};
    for (const side of order) rounds[side] = wrkRound({ ...sides[side], seconds, connections });
    const sum = (field) => SIDES.reduce((total, side) => total + rounds[side][field], 0);
    measured.push({ rounds, wall: sum('seconds'), wrkCpu: sum('wrkCpu') });
    logBlock(block + 1, order.join(', '), rounds);
  }
  return measured;
}

const cpuPerRequest = (round) => round.serverCpu / round.requests;
const total = (blocks, side, field) =>
  blocks.reduce((sum, block) => sum + block.rounds[side][field], 0);
const pooledMicros = (blocks, side) =>
  (total(blocks, side, 'serverCpu') / total(blocks, side, 'requests')) * 1e6;

/** The ratios of `side` to `off` block by block: rates, and off's CPU per request over side's. */
function compareTo(blocks, side) {
  // Blocks of one generation share its processes: the interval draws generations first.
  const generations = blocks.map((block) => block.generation);
  return {
    rate: summarizeRatios(
      blocks.map(({ rounds }) => rounds[side].rate / rounds.off.rate),
      generations,
    ),
    cpu: summarizeRatios(
      blocks.map(({ rounds }) => cpuPerRequest(rounds.off) / cpuPerRequest(rounds[side])),
      generations,
    ),
    pooledCpuRatio: pooledMicros(blocks, 'off') / pooledMicros(blocks, side),
  };
}

function verdict({ low, high }) {
  if (low >= GOAL) return 'OK: the whole interval is at or above the goal';
  if (high < GOAL) return 'UNDER: the whole interval is below the goal';
  return 'NOT RESOLVED: the interval holds the goal';
}

/** What wrk and the servers used of the machine's cores while they ran. */
function describeLoadGenerator(blocks) {
  const wall = blocks.reduce((sum, block) => sum + block.wall, 0);
  const wrkCpu = blocks.reduce((sum, block) => sum + block.wrkCpu, 0);
  const requests = SIDES.reduce((sum, side) => sum + total(blocks, side, 'requests'), 0);
  const servers = SIDES.map(
    (side) =>
      `${side} ${(total(blocks, side, 'serverCpu') / total(blocks, side, 'seconds')).toFixed(2)}`,
  );
  const timeouts = SIDES.reduce((sum, side) => sum + total(blocks, side, 'timeouts'), 0);
  return `wrk used ${(wrkCpu / wall).toFixed(2)} of a core (${((wrkCpu / requests) * 1e6).toFixed(1)} µs per request); each server, while measured, ${servers.join(', ')} cores; ${timeouts} requests timed out`;
}

function summarize(blocks, loadBefore) {
  const withMetrics = compareTo(blocks, 'on');
  const control = compareTo(blocks, 'control');
  const rates = (side) => Math.round(median(blocks.map(({ rounds }) => rounds[side].rate)));
  console.log(
    `\nmetrics   ${blocks.length} blocks, load average ${loadBefore.toFixed(1)} before and ${loadavg()[0].toFixed(1)} after; median rates: on ${rates('on')}, off ${rates('off')}, control ${rates('control')} req/s`,
  );
  console.log(
    `          A/B on/off rate, median of the blocks' ratios [95 % interval]: ${formatSummary(withMetrics.rate)} (goal >= ${GOAL}) ${verdict(withMetrics.rate)}`,
  );
  console.log(
    `          A/A control/off rate (the noise floor: 1 but for chance): ${formatSummary(control.rate)}`,
  );
  console.log(
    `          CPU per request, all rounds: on ${pooledMicros(blocks, 'on').toFixed(1)} µs, off ${pooledMicros(blocks, 'off').toFixed(1)} µs, control ${pooledMicros(blocks, 'control').toFixed(1)} µs; off/on ${withMetrics.pooledCpuRatio.toFixed(3)}, off/control ${control.pooledCpuRatio.toFixed(3)} (the rate ratio a CPU-bound server reaches)`,
  );
  console.log(
    `          CPU off/on, median of the blocks' ratios ${formatSummary(withMetrics.cpu)}; off/control ${formatSummary(control.cpu)}`,
  );
  console.log(`          load generator: ${describeLoadGenerator(blocks)}`);
  return { withMetrics, control };
}

/**
 * Measures the metrics' cost: `generations` times, three fresh Depots from `startSides(g)`
 * ({ on, off, control }, each { url, headers, pid, port, stop }) are warmed with rounds of
 * `warmupSeconds`, take their share of the `blocks` blocks of rounds of `seconds`, and are
 * stopped. Fresh Depots each generation because two identical servers differ by several per
 * cent for the life of their processes (memory layout, what the JIT made of them): one
 * generation's A/A control showed it, wholly below 1 (docs/metrics.md). Prints every block,
 * each generation's medians and the summary over all; answers the summary.
 */
export async function measureMetricsCost(
  startSides,
  { generations, blocks, seconds, warmupSeconds, connections },
) {
  console.log(
    `\nMetrics' cost: ${blocks} blocks of three ${seconds} s rounds (wrk, ${connections} connections) over ${generations} generations of fresh Depots, each warmed first:`,
  );
  const loadBefore = loadavg()[0];
  const measured = [];
  for (let generation = 0; generation < generations; generation++) {
    const share = Math.round(((generation + 1) * blocks) / generations) - measured.length;
    const sides = await startSides(generation);
    try {
      console.log(`  generation ${generation + 1}: ${share} blocks`);
      warmUp(sides, warmupSeconds, connections);
      const theirs = runBlocksInTurns(sides, share, seconds, connections, measured.length);
      logGeneration(generation + 1, theirs);
      measured.push(...theirs.map((block) => ({ ...block, generation })));
    } finally {
      await Promise.all(SIDES.map((side) => sides[side].stop()));
    }
  }
  return summarize(measured, loadBefore);
}

/** A generation's median rate ratios: how far its own identical servers were apart. */
function logGeneration(number, blocks) {
  const ratio = (side) =>
    median(blocks.map(({ rounds }) => rounds[side].rate / rounds.off.rate)).toFixed(3);
  console.log(
    `  generation ${number}: median on/off ${ratio('on')}, control/off ${ratio('control')}`,
  );
}
