// npm run bench:docker: the registry figures of issue 25, each against Debian's
// docker-registry (the CNCF distribution registry) measured in the same run on loopback (a
// built server: scripts/prepare-start.mjs runs first):
// 1. skopeo pushing an image (BENCH_LAYERS layers, default 8, of BENCH_LAYER_MB MiB, default
//    2; the issue's 1 GiB image is BENCH_LAYER_MB=128; an OCI layout made here) to a new
//    image name: Depot (through its token flow) against the registry (goal <= 1.2). Each
//    push is of fresh random layers, made before its clock starts: skopeo remembers where it
//    pushed a blob and would mount the same layers again instead of uploading them;
// 2. skopeo pulling it into a new OCI layout (goal <= 1.2);
// 3. 10 skopeo pulls of the same image at once (goal <= 1.2);
// 4. manifest HEAD requests per second, 10 at a time (the call every pull starts with),
//    Depot with a registry token against the registry anonymous, each after 500 untimed
//    (goal >= 1.0);
// 5. 10 pulls at once through a remote repository proxying the registry (behind a counting
//    proxy): how many times the upstream was asked for each layer (goal: once).
// BENCH_RUNS (default 5) sets the timed runs of 1 to 3, Depot's and the registry's taking
// turns (who goes first swaps each round), each after a `sync`. Prints medians and ratios,
// and each server's CPU seconds (median) for 1 to 3.
import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createServer, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDistributionRegistry } from '../tests/helpers/distribution-registry.ts';
import { startBuiltDepot } from './depot.mjs';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LAYERS = Number(process.env.BENCH_LAYERS ?? 8);
const LAYER_MB = Number(process.env.BENCH_LAYER_MB ?? 2);
const HEADS = 2000;
const HEAD_WARMUP = 500;
const HEAD_CONCURRENCY = 10;
const CONCURRENT_PULLS = 10;
/** Linux's clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const ADMIN = 'bench-admin-1';
const BASIC = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const work = mkdtempSync(join(tmpdir(), 'depot-bench-docker-'));
const children = [];
let registry;
const servers = [];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const sha = (data) => createHash('sha256').update(data).digest('hex');

/**
 * An OCI image layout of fresh random layers (content no registry has seen): nothing to
 * build, nothing fetched. Answers its skopeo address and its directory.
 */
function makeLayout(name) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  const blob = (content, mediaType) => {
    const hex = sha(content);
    writeFileSync(join(dir, 'blobs', 'sha256', hex), content);
    return { mediaType, digest: `sha256:${hex}`, size: content.length };
  };
  const layers = Array.from({ length: LAYERS }, () =>
    blob(randomBytes(LAYER_MB * 1024 * 1024), 'application/vnd.oci.image.layer.v1.tar'),
  );
  const config = blob(
    Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers' } })),
    'application/vnd.oci.image.config.v1+json',
  );
  const manifest = Buffer.from(
    JSON.stringify({ schemaVersion: 2, mediaType: OCI_MANIFEST, config, layers }),
  );
  const entry = blob(manifest, OCI_MANIFEST);
  writeFileSync(join(dir, 'oci-layout'), '{"imageLayoutVersion":"1.0.0"}');
  writeFileSync(
    join(dir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [{ ...entry, annotations: { 'org.opencontainers.image.ref.name': 'bench' } }],
    }),
  );
  return { source: `oci:${dir}:bench`, dir };
}

const remove = (dir) => rmSync(dir, { recursive: true, force: true });

const skopeo = (...args) =>
  run('skopeo', args, {
    env: { PATH: process.env.PATH, HOME: work, REGISTRY_AUTH_FILE: join(work, 'auth.json') },
    maxBuffer: 16 * 1024 * 1024,
  });

async function startDepot() {
  const port = 20000 + Math.floor(Math.random() * 20000);
  children.push(await startBuiltDepot({ home: join(work, 'depot'), port, adminPassword: ADMIN }));
  const base = `http://127.0.0.1:${port}`;
  const made = await fetch(`${base}/artifactory/api/repositories/docker-local`, {
    method: 'PUT',
    headers: { authorization: BASIC, 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'docker' }),
  });
  if (!made.ok) throw new Error(`creating docker-local: ${made.status} ${await made.text()}`);
  return base;
}

/**
 * Seconds and server CPU seconds of `step` on one side. Dirty pages a previous step left
 * (gigabytes of pulled layers) are written out first: otherwise whichever side runs next
 * pays for the other's writeback.
 */
async function timed(side, step) {
  execFileSync('sync');
  const cpuBefore = cpuSeconds(side.pid);
  const start = process.hrtime.bigint();
  await step();
  return { seconds: seconds(start), cpu: cpuSeconds(side.pid) - cpuBefore };
}

/** User and system CPU seconds a process has used so far (Linux's /proc). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * Round `i` of a push of fresh layers, then of a pull, of the image to and from the side's
 * prefix. What the round wrote here (its layout, what it pulled) goes after it.
 */
async function pushPullRound(side, i) {
  const tls = ['--src-tls-verify=false', '--dest-tls-verify=false'];
  const target = `docker://${side.prefix}/bench-${i}:1`;
  const layout = makeLayout(`${side.name}-image-${i}`);
  const push = await timed(side, () =>
    skopeo('copy', ...tls, ...side.creds('--dest-creds'), layout.source, target),
  );
  remove(layout.dir);
  const pulled = join(work, `${side.name}-${i}`);
  const pull = await timed(side, () =>
    skopeo('copy', ...tls, ...side.creds('--src-creds'), target, `oci:${pulled}:x`),
  );
  remove(pulled);
  return { push, pull };
}

/** Round `i` of CONCURRENT_PULLS pulls of the side's first image at once. */
async function concurrentPullsRound(side, i) {
  const into = Array.from({ length: CONCURRENT_PULLS }, (_, j) =>
    join(work, `${side.name}-many-${i}-${j}`),
  );
  const many = await timed(side, () =>
    Promise.all(
      into.map((dir) =>
        skopeo(
          'copy',
          '--src-tls-verify=false',
          ...side.creds('--src-creds'),
          `docker://${side.prefix}/bench-0:1`,
          `oci:${dir}:x`,
        ),
      ),
    ),
  );
  into.forEach(remove);
  return many;
}

/**
 * RUNS rounds of `round` on both sides, taking turns and swapping who goes first each round
 * (a drift in the machine's load falls on both). Answers each side's rounds.
 */
async function alternating(sides, round) {
  const results = sides.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) results[index].push(await round(sides[index], i));
  }
  return results;
}

/** Median seconds and median server CPU seconds of rounds. */
const medians = (rounds) => ({
  seconds: median(rounds.map((round) => round.seconds)),
  cpu: median(rounds.map((round) => round.cpu)),
});

/** A reverse proxy to the registry that counts the GETs of each blob it passes on. */
async function countingUpstream(target) {
  const blobGets = new Map();
  const server = createServer((request, response) => {
    const blob = /\/blobs\/(sha256:[a-f0-9]{64})$/.exec(request.url ?? '');
    if (blob && request.method === 'GET') blobGets.set(blob[1], (blobGets.get(blob[1]) ?? 0) + 1);
    const onward = httpRequest(
      `${target}${request.url}`,
      { method: request.method, headers: { ...request.headers, host: new URL(target).host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    onward.on('error', () => response.writeHead(502).end());
    request.pipe(onward);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  servers.push(server);
  return { base: `http://127.0.0.1:${server.address().port}`, blobGets };
}

/** 10 pulls at once through a remote of the registry: the upstream's GETs of each blob. */
async function pullsThroughRemote(depot, peer) {
  const layout = makeLayout('proxied-image');
  await skopeo(
    'copy',
    '--dest-tls-verify=false',
    layout.source,
    `docker://${peer.host}/library/proxied:1`,
  );
  remove(layout.dir);
  const upstream = await countingUpstream(peer.base);
  const call = async (method, path, body) => {
    const answer = await fetch(`${depot}${path}`, {
      method,
      headers: { authorization: BASIC, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  };
  await call('PUT', '/ui/api/v1/ui/securityconfig', { remoteAllowList: ['127.0.0.1'] });
  await call('PUT', '/artifactory/api/repositories/docker-remote', {
    rclass: 'remote',
    packageType: 'docker',
    url: upstream.base,
  });
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENT_PULLS }, (_, j) =>
      skopeo(
        'copy',
        '--src-tls-verify=false',
        '--src-creds',
        `admin:${ADMIN}`,
        `docker://${depot.replace('http://', '')}/docker-remote/proxied:1`,
        `oci:${join(work, `remote-${j}`)}:x`,
      ),
    ),
  );
  return { seconds: seconds(start), gets: [...upstream.blobGets.values()] };
}

/**
 * Manifest HEADs per second, HEAD_CONCURRENCY at a time, after HEAD_WARMUP untimed ones (on
 * both sides): the first few hundred measure the JIT compiling Depot's answer and the
 * client opening its connections, not a pull's steady state.
 */
async function headsPerSecond(url, headers) {
  await timedHeads(url, headers, HEAD_WARMUP);
  return HEADS / (await timedHeads(url, headers, HEADS));
}

/** Seconds for `count` manifest HEADs, HEAD_CONCURRENCY at a time. */
async function timedHeads(url, headers, count) {
  let left = count;
  const worker = async () => {
    while (left-- > 0) {
      const answer = await fetch(url, {
        method: 'HEAD',
        headers: { accept: OCI_MANIFEST, ...headers },
      });
      if (answer.status !== 200) throw new Error(`HEAD ${url}: ${answer.status}`);
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: HEAD_CONCURRENCY }, worker));
  return seconds(start);
}

async function main() {
  execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
  registry = await startDistributionRegistry();
  const peer = registry;
  const depot = await startDepot();
  const depotHost = depot.replace('http://', '');
  console.log(`${LAYERS} layers of ${LAYER_MB} MiB, ${RUNS} runs each (median)...`);
  const sides = [
    {
      name: 'depot',
      prefix: `${depotHost}/docker-local`,
      creds: (flag) => [flag, `admin:${ADMIN}`],
      pid: children[0].pid,
    },
    { name: 'registry', prefix: peer.host, creds: () => [], pid: peer.pid },
  ];
  const pushPulls = await alternating(sides, pushPullRound);
  const [ours, theirs] = pushPulls.map((rounds) => ({
    push: medians(rounds.map((round) => round.push)),
    pull: medians(rounds.map((round) => round.pull)),
  }));
  const token = await fetch(`${depot}/v2/token?scope=repository:docker-local/bench-0:pull`, {
    headers: { authorization: BASIC },
  }).then((answer) => answer.json());
  const depotHeads = await headsPerSecond(`${depot}/v2/docker-local/bench-0/manifests/1`, {
    authorization: `Bearer ${token.token}`,
  });
  const peerHeads = await headsPerSecond(`${peer.base}/v2/bench-0/manifests/1`, {});
  const [depotMany, peerMany] = (await alternating(sides, concurrentPullsRound)).map(medians);
  const remote = await pullsThroughRemote(depot, peer);
  const rows = [
    ['skopeo push (s)', ours.push, theirs.push, '<= 1.2'],
    ['skopeo pull (s)', ours.pull, theirs.pull, '<= 1.2'],
    [`${CONCURRENT_PULLS} pulls at once (s)`, depotMany, peerMany, '<= 1.2'],
  ];
  console.log(
    '\n| figure | Depot | docker-registry | ratio | goal | server CPU s, Depot / registry |\n' +
      '| --- | --- | --- | --- | --- | --- |',
  );
  for (const [figure, mine, peers, goal] of rows)
    console.log(
      `| ${figure} | ${mine.seconds.toFixed(2)} | ${peers.seconds.toFixed(2)} | ` +
        `${(mine.seconds / peers.seconds).toFixed(2)} | ${goal} | ` +
        `${mine.cpu.toFixed(2)} / ${peers.cpu.toFixed(2)} |`,
    );
  console.log(
    `| manifest HEAD per second | ${depotHeads.toFixed(2)} | ${peerHeads.toFixed(2)} | ` +
      `${(depotHeads / peerHeads).toFixed(2)} | >= 1.0 | |`,
  );
  const most = Math.max(...remote.gets);
  console.log(
    `\n${CONCURRENT_PULLS} pulls at once through a remote (${remote.seconds.toFixed(2)} s): ` +
      `${remote.gets.length} blobs fetched upstream, each asked for at most ${most} time(s) ` +
      `(goal 1): ${most === 1 && remote.gets.length === LAYERS + 1 ? 'met' : 'NOT met'}`,
  );
}

try {
  await main();
} finally {
  for (const child of children) child.kill('SIGTERM');
  for (const server of servers) server.close();
  await registry?.remove();
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
