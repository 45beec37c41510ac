// npm run bench:storage: Depot's storage path against peers measured in the same run on
// loopback. Needs Debian's nginx and wrk (apt-get install nginx wrk) and a built server
// (this script runs scripts/prepare-start.mjs first). Prints medians and ratios:
// - download of one large artifact: Depot against nginx serving the same file (goal >= 0.8);
// - upload of it: Depot's time against `sha256sum` of the file, the hashing limit (goal <= 1.5);
//   and the same upload with the client's MD5 (X-Checksum-Md5), which makes Depot compute MD5
//   too: what computing MD5 at every deploy would cost (docs/storage-api.md, "MD5");
// - 10 KiB downloads per second with wrk, 32 connections: Depot against nginx (goal >= 0.5),
//   beside bare Fastify answering the same bytes from memory: what one Node process reaches.
//   The three take turns, BENCH_RUNS rounds of 5 s after a 2 s warm-up each.
// - what the metrics cost the same 10 KiB downloads (docs/metrics.md; goal: on / off >= 0.95):
//   three fresh Depots set up alike, one with metrics and two without, in many short rounds,
//   with the A/B ratio's and an A/A control's 95 % intervals (bench/metrics-cost.mjs). Fresh
//   ones: the first Depot's large uploads and downloads would weigh on one side only; and
//   fresh again for each of BENCH_METRICS_GENERATIONS (default 3) generations, which share
//   the blocks: two identical Depots differ by several per cent for their processes' lives.
// Beside each wall-clock figure, the CPU time the processes spent (from /proc): Depot's per
// upload and download against `sha256sum`'s, and per 10 KiB request. On a shared 2-core machine
// the wall-clock ratios move with everyone else's load; the CPU a piece of work takes moves far
// less, so it tells whether Depot or the machine changed (docs/architecture.md, "Storage
// benchmark").
// BENCH_SIZE_MB (default 1024) sets the large file's size; BENCH_RUNS (default 3) the runs;
// BENCH_METRICS_BLOCKS (default 18) and BENCH_METRICS_SECONDS (default 2, whole seconds) the
// metrics' blocks of three rounds and a round's length; BENCH_ONLY=metrics measures the
// metrics' cost alone.
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBuiltDepot } from './depot.mjs';
import { measureMetricsCost } from './metrics-cost.mjs';
import { median } from './paired-stats.mjs';
import { cpuSeconds, wrkRound } from './wrk.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const SIZE_MB = Number(process.env.BENCH_SIZE_MB ?? 1024);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const METRICS_BLOCKS = Number(process.env.BENCH_METRICS_BLOCKS ?? 18);
// wrk takes whole seconds only.
const METRICS_SECONDS = Math.max(1, Math.round(Number(process.env.BENCH_METRICS_SECONDS ?? 2)));
const METRICS_ONLY = process.env.BENCH_ONLY === 'metrics';
const METRICS_GENERATIONS = Math.min(
  10,
  Math.max(1, Number(process.env.BENCH_METRICS_GENERATIONS ?? 3)),
);
const CONNECTIONS = 32;
const ADMIN = 'bench-admin-1';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const work = mkdtempSync(join(tmpdir(), 'depot-bench-storage-'));
const children = [];

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

/** Runs `fn` and answers the CPU seconds `pid` (or this process's reaped children) spent in it. */
async function cpuOf(fn, pid) {
  const before = pid ? cpuSeconds(pid) : cpuSeconds('self', true);
  await fn();
  return (pid ? cpuSeconds(pid) : cpuSeconds('self', true)) - before;
}

function time(fn) {
  return async () => {
    const start = process.hrtime.bigint();
    await fn();
    return seconds(start);
  };
}

function curlDownload(url, headers = []) {
  execFileSync('curl', ['-sf', '-o', '/dev/null', ...headers.flatMap((h) => ['-H', h]), url]);
}

function upload(port, path, file, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path,
        headers: { authorization: AUTH, ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 201
            ? resolve()
            : reject(new Error(`upload answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

/** Requests/s wrk reaches, and with `pid` the µs of CPU that process spent per request. */
function wrkRate(url, headers = [], seconds = 10, pid = undefined) {
  const round = wrkRound({ url, headers, seconds, pid, connections: CONNECTIONS });
  const cpuMicros = pid ? (round.serverCpu / round.requests) * 1e6 : undefined;
  return { rate: round.rate, cpuMicros };
}

/** Runs `measure` while bench/bare-fastify.mjs listens on `port`. */
async function withBareFastify(port, measure) {
  const child = spawn(process.execPath, [join(ROOT, 'bench/bare-fastify.mjs'), String(port)], {
    stdio: 'ignore',
  });
  children.push(child);
  for (let i = 0; i < 100; i++) {
    const answer = await fetch(`http://127.0.0.1:${port}/small.bin`).catch(() => undefined);
    if (answer?.ok) break;
    await sleep(100);
  }
  try {
    return measure();
  } finally {
    child.kill('SIGTERM');
  }
}

async function startDepot(port, name = 'depot', env = {}) {
  const child = await startBuiltDepot({ home: join(work, name), port, adminPassword: ADMIN, env });
  children.push(child);
  return child;
}

/** A generic local repository `bench` holding small.bin, on the Depot at `port`. */
async function prepareSmallDownload(port, file) {
  await fetch(`http://127.0.0.1:${port}/artifactory/api/repositories/bench`, {
    method: 'PUT',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
  });
  await upload(port, '/artifactory/bench/small.bin', file);
}

function startNginx(port, dir) {
  const conf = join(work, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off; worker_processes 2; pid ${join(work, 'nginx.pid')}; error_log ${join(work, 'nginx-error.log')};
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  client_body_temp_path ${work}; proxy_temp_path ${work}; fastcgi_temp_path ${work}; uwsgi_temp_path ${work}; scgi_temp_path ${work};
  server { listen 127.0.0.1:${port}; root ${dir}; } }
`,
  );
  const nginx = spawn('nginx', ['-c', conf], { stdio: 'ignore' });
  children.push(nginx);
  return sleep(500).then(() => nginx);
}

/**
 * The large file's upload and download, and 10 KiB downloads from Depot, nginx and bare
 * Fastify. Stops its Depot and nginx when done, so they do not run beside the metrics' Depots.
 */
async function measureStoragePath(files) {
  const big = join(files, 'big.bin');
  console.log(`Preparing a ${SIZE_MB} MiB file...`);
  execFileSync('dd', ['if=/dev/urandom', `of=${big}`, 'bs=1M', `count=${SIZE_MB}`], {
    stdio: 'ignore',
  });

  const [depotPort, nginxPort] = [18082 + (process.pid % 1000), 19082 + (process.pid % 1000)];
  const depotChild = await startDepot(depotPort);
  const depotPid = depotChild.pid;
  const nginx = await startNginx(nginxPort, files);
  const depot = `http://127.0.0.1:${depotPort}`;
  await prepareSmallDownload(depotPort, join(files, 'small.bin'));

  const bigMd5 = execFileSync('md5sum', [big]).toString().split(' ')[0];
  const results = {
    upload: [],
    uploadWithMd5: [],
    sha256sum: [],
    depotDownload: [],
    nginxDownload: [],
  };
  // CPU seconds: Depot's for the plain upload and the download, sha256sum's for its pass.
  const cpu = { upload: [], sha256sum: [], download: [] };
  const timedCpu = async (list, fn, pid) => {
    let wall;
    list.push(await cpuOf(async () => (wall = await time(fn)()), pid));
    return wall;
  };
  for (let run = 1; run <= RUNS; run++) {
    results.sha256sum.push(await timedCpu(cpu.sha256sum, () => execFileSync('sha256sum', [big])));
    results.upload.push(
      await timedCpu(
        cpu.upload,
        () => upload(depotPort, `/artifactory/bench/big-${run}.bin`, big),
        depotPid,
      ),
    );
    results.uploadWithMd5.push(
      await time(() =>
        upload(depotPort, `/artifactory/bench/md5-${run}.bin`, big, {
          'x-checksum-md5': bigMd5,
        }),
      )(),
    );
    results.nginxDownload.push(
      await time(() => curlDownload(`http://127.0.0.1:${nginxPort}/big.bin`))(),
    );
    results.depotDownload.push(
      await timedCpu(
        cpu.download,
        () => curlDownload(`${depot}/artifactory/bench/big-1.bin`, [`Authorization: ${AUTH}`]),
        depotPid,
      ),
    );
    console.log(
      `run ${run}: upload ${results.upload.at(-1).toFixed(2)} s, with MD5 ${results.uploadWithMd5.at(-1).toFixed(2)} s, sha256sum ${results.sha256sum.at(-1).toFixed(2)} s, download Depot ${results.depotDownload.at(-1).toFixed(2)} s, nginx ${results.nginxDownload.at(-1).toFixed(2)} s`,
    );
  }
  // Each server warms up for 2 s, then the three take turns, 5 s each, BENCH_RUNS times: a
  // passing disturbance on this shared machine touches every peer alike, and medians are read.
  const barePort = 20082 + (process.pid % 1000);
  const smallRates = await withBareFastify(barePort, () => {
    const peers = {
      depot: [`${depot}/artifactory/bench/small.bin`, [`Authorization: ${AUTH}`], depotPid],
      nginx: [`http://127.0.0.1:${nginxPort}/small.bin`, []],
      bare: [`http://127.0.0.1:${barePort}/small.bin`, []],
    };
    for (const [url, headers] of Object.values(peers)) wrkRate(url, headers, 2);
    const rates = { depot: [], nginx: [], bare: [] };
    const cpuMicros = { depot: [] };
    for (let run = 1; run <= RUNS; run++)
      for (const [name, [url, headers, pid]] of Object.entries(peers)) {
        const measured = wrkRate(url, headers, 5, pid);
        rates[name].push(measured.rate);
        if (pid) cpuMicros[name].push(measured.cpuMicros);
      }
    const listed = (name) => rates[name].map(Math.round).join(', ');
    const listedCpu = (name) => cpuMicros[name].map((us) => us.toFixed(1)).join(', ');
    console.log(
      `10 KiB req/s per run: Depot ${listed('depot')}; nginx ${listed('nginx')}; bare Fastify ${listed('bare')}`,
    );
    console.log(`10 KiB CPU µs per request per run: Depot ${listedCpu('depot')}`);
    return { rates, cpuMicros };
  });
  const depotRate = median(smallRates.rates.depot);
  const nginxRate = median(smallRates.rates.nginx);
  const bareRate = median(smallRates.rates.bare);
  depotChild.kill('SIGTERM');
  nginx.kill('SIGTERM');

  const mbps = (s) => (SIZE_MB / s).toFixed(0);
  const download = median(results.nginxDownload) / median(results.depotDownload);
  const uploadRatio = median(results.upload) / median(results.sha256sum);
  console.log(`\nMedians of ${RUNS} runs, ${SIZE_MB} MiB file, loopback:`);
  console.log(
    `download  Depot ${mbps(median(results.depotDownload))} MiB/s, nginx ${mbps(median(results.nginxDownload))} MiB/s: Depot/nginx throughput ${download.toFixed(2)} (goal >= 0.8) ${download >= 0.8 ? 'OK' : 'UNDER'}`,
  );
  console.log(
    `upload    Depot ${median(results.upload).toFixed(2)} s, sha256sum ${median(results.sha256sum).toFixed(2)} s: ratio ${uploadRatio.toFixed(2)} (goal <= 1.5) ${uploadRatio <= 1.5 ? 'OK' : 'OVER'}`,
  );
  console.log(
    `10 KiB    Depot ${depotRate.toFixed(0)} req/s, nginx ${nginxRate.toFixed(0)} req/s: ratio ${(depotRate / nginxRate).toFixed(2)} (goal >= 0.5) ${depotRate / nginxRate >= 0.5 ? 'OK' : 'UNDER'}`,
  );
  console.log(
    `          bare Fastify from memory ${bareRate.toFixed(0)} req/s: ratio ${(bareRate / nginxRate).toFixed(2)} to nginx, Depot at ${(depotRate / bareRate).toFixed(2)} of it`,
  );
  const perGiB = (seconds) => ((seconds * 1024) / SIZE_MB).toFixed(2);
  console.log(
    `CPU       per GiB: Depot's upload ${perGiB(median(cpu.upload))} s against sha256sum's ${perGiB(median(cpu.sha256sum))} s (ratio ${(median(cpu.upload) / median(cpu.sha256sum)).toFixed(2)}); Depot's download ${perGiB(median(cpu.download))} s; 10 KiB ${median(smallRates.cpuMicros.depot).toFixed(1)} µs per request`,
  );
  const md5Cost = median(results.uploadWithMd5) / median(results.upload) - 1;
  console.log(
    `MD5       upload computing MD5 too ${median(results.uploadWithMd5).toFixed(2)} s: +${(md5Cost * 100).toFixed(0)} % of the upload time (computed at deploy only when the client sends it while this is over 10 %)`,
  );
}

/**
 * Three fresh Depots alike but for their metrics, each holding small.bin, warmed by nobody
 * yet; generation `g`'s homes and ports are its own, and which side starts first rotates.
 */
async function startMetricsSides(smallFile, generation) {
  const sides = {};
  const env = {
    on: { DEPOT_METRICS: 'true' },
    off: { DEPOT_METRICS: 'false' },
    control: { DEPOT_METRICS: 'false' },
  };
  const names = Object.keys(env);
  const startOrder = names.map((_, i) => names[(i + generation) % names.length]);
  for (const side of startOrder) {
    // Three ports a generation, thirty a run, all below the kernel's ephemeral range (from
    // 32768), where wrk's own connections could hold one.
    const port = 21082 + (process.pid % 300) * 30 + generation * 3 + names.indexOf(side);
    const child = await startDepot(port, `depot-${side}-${generation}`, env[side]);
    await prepareSmallDownload(port, smallFile);
    const url = `http://127.0.0.1:${port}/artifactory/bench/small.bin`;
    sides[side] = {
      url,
      headers: [`Authorization: ${AUTH}`],
      pid: child.pid,
      port,
      stop: () => stopped(child),
    };
  }
  return sides;
}

/** Stops a child and waits for it to exit. */
function stopped(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

async function main() {
  execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const files = join(work, 'files');
  mkdirSync(files);
  writeFileSync(join(files, 'small.bin'), Buffer.alloc(10 * 1024, 7));
  if (!METRICS_ONLY) await measureStoragePath(files);
  await measureMetricsCost(
    (generation) => startMetricsSides(join(files, 'small.bin'), generation),
    {
      generations: METRICS_GENERATIONS,
      blocks: METRICS_BLOCKS,
      seconds: METRICS_SECONDS,
      warmupSeconds: 2,
      connections: CONNECTIONS,
    },
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
    setTimeout(() => rmSync(work, { recursive: true, force: true }), 500);
  });
