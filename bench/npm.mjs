// npm run bench:npm: the package-format figures of issue 6, each against a peer measured in
// the same run on loopback (a built server: scripts/prepare-start.mjs runs first):
// 1. `npm install` of a project of 300 packages (3 versions each), npm's cache warm, no
//    lockfile: through Depot against through Verdaccio serving the same packages, both read
//    anonymously (goal <= 0.8), and Depot with basic auth too;
// 2. packument requests per second (autocannon, 20 connections, abbreviated form): Depot
//    against Verdaccio (goal >= 2);
// 3. a packument of many megabytes (2,000 versions): the longest a 2 ms ping to the same Depot
//    waited while two clients fetched it over and over (the event loop's longest block, goal
//    < 50 ms); then the same through a virtual repository that merges it with a second
//    member's versions;
// 4. `pip install` of 50 wheels through Depot against `python3 -m http.server` serving the
//    same PEP 503 tree (goal <= 1.2).
// BENCH_RUNS (default 5) sets the timed runs of 1 and 4; BENCH_PARTS (default
// install,rps,big,pip) picks the figures. Prints medians and ratios.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { packTarball, publishDocument } from '../tests/helpers/npm-cli.ts';
import { buildWheel } from '../tests/helpers/python-dists.ts';
import { startBuiltDepot } from './depot.mjs';
import { ensureAutocannon, ensureVerdaccio } from './peers.mjs';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PACKAGES = 300;
const VERSIONS = ['1.0.0', '1.1.0', '1.2.0'];
const BIG_VERSIONS = 2000;
const WHEELS = 50;
const PARTS = new Set((process.env.BENCH_PARTS ?? 'install,rps,big,pip').split(','));
const ADMIN = 'bench-admin-1';
const BASIC = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const work = mkdtempSync(join(tmpdir(), 'depot-bench-npm-'));
const children = [];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const freePort = (() => {
  let next = 20000 + Math.floor(Math.random() * 20000);
  return () => next++;
})();

async function waitFor(url, headers = {}) {
  for (let i = 0; i < 600; i++) {
    const answer = await fetch(url, { headers }).catch(() => undefined);
    if (answer && answer.status < 500) return;
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

async function startDepot() {
  const port = freePort();
  children.push(await startBuiltDepot({ home: join(work, 'depot'), port, adminPassword: ADMIN }));
  const base = `http://127.0.0.1:${port}`;
  for (const [key, packageType, rclass = 'local', extra = {}] of [
    ['npm-local', 'npm'],
    ['npm-other', 'npm'],
    ['npm-merged', 'npm', 'virtual', { repositories: ['npm-local', 'npm-other'] }],
    ['pypi-local', 'pypi'],
  ]) {
    const made = await fetch(`${base}/artifactory/api/repositories/${key}`, {
      method: 'PUT',
      headers: { authorization: BASIC, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass, packageType, ...extra }),
    });
    if (!made.ok) throw new Error(`creating ${key}: ${made.status} ${await made.text()}`);
  }
  return base;
}

async function startVerdaccio() {
  const cli = ensureVerdaccio();
  const port = freePort();
  const home = join(work, 'verdaccio');
  mkdirSync(home);
  const config = join(home, 'config.yaml');
  writeFileSync(
    config,
    `storage: ${join(home, 'storage')}\nauth:\n  htpasswd:\n    file: ${join(home, 'htpasswd')}\nuplinks: {}\npackages:\n  '**':\n    access: $all\n    publish: $authenticated\nmax_body_size: 100mb\nlog: { type: stdout, format: json, level: error }\n`,
  );
  children.push(
    spawn(process.execPath, [cli, '--listen', `127.0.0.1:${port}`, '--config', config], {
      stdio: 'ignore',
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/-/ping`);
  const user = await fetch(`${base}/-/user/org.couchdb.user:bench`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', password: 'bench-password-1' }),
  });
  const { token } = await user.json();
  return { base, token };
}

/** A publish document as `npm publish` sends it, for a package with one module. */
async function benchDocument(name, version, dependencies, extra = {}) {
  const manifest = { name, version, main: 'index.js', dependencies, ...extra };
  const tarball = await packTarball({
    'package.json': JSON.stringify(manifest),
    'index.js': `module.exports = ${JSON.stringify(`${name}@${version}`)};\n`,
  });
  return publishDocument(name, version, tarball, manifest);
}

async function publish(registry, authorization, document) {
  const answer = await fetch(`${registry}${document.name}`, {
    method: 'PUT',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  if (!answer.ok)
    throw new Error(`publish ${document.name}: ${answer.status} ${await answer.text()}`);
}

/** Package i depends on 2i+1 and 2i+2: the tree under bench-pkg-0 is all 300 packages. */
function dependenciesOf(index) {
  const children = [2 * index + 1, 2 * index + 2].filter((child) => child < PACKAGES);
  return Object.fromEntries(children.map((child) => [`bench-pkg-${child}`, '^1.0.0']));
}

/**
 * Median time of `npm install` in a fresh project (no node_modules, no lockfile), npm's cache
 * warmed by a first install. `offlineAfterWarming` times `--offline` installs instead: npm's
 * own work with no server asked at all, the floor any registry is measured against.
 */
async function timedInstalls(label, registry, auth, offlineAfterWarming = false) {
  const project = join(work, `project-${label}`);
  mkdirSync(project);
  const cache = join(work, `npm-cache-${label}`);
  const nerf = registry.replace(/^https?:/, '');
  writeFileSync(join(project, '.npmrc'), `registry=${registry}\n${nerf}:${auth}\n`);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'bench-project',
      private: true,
      dependencies: { 'bench-pkg-0': '^1.0.0' },
    }),
  );
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_config_')),
  );
  const install = (offline = false) =>
    run(
      'npm',
      [
        'install',
        ...(offline ? ['--offline'] : []),
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--cache',
        cache,
        '--loglevel',
        'error',
      ],
      {
        cwd: project,
        env,
        maxBuffer: 1 << 24,
      },
    );
  const clean = () => {
    rmSync(join(project, 'node_modules'), { recursive: true, force: true });
    rmSync(join(project, 'package-lock.json'), { force: true });
  };
  await install(); // warms npm's cache
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    clean();
    const start = process.hrtime.bigint();
    await install(offlineAfterWarming);
    times.push(seconds(start));
  }
  return median(times);
}

async function requestsPerSecond(autocannon, url, headers) {
  const result = await autocannon({ url, connections: 20, duration: 10, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

/** Pings Depot every 2 ms while `load` runs; answers the slowest ping and the 99th percentile. */
async function pingLatencyDuring(base, load) {
  const latencies = [];
  let loading = true;
  const pinger = (async () => {
    while (loading) {
      const start = process.hrtime.bigint();
      await (await fetch(`${base}/artifactory/api/system/ping`)).text();
      latencies.push(seconds(start) * 1000);
      await sleep(2);
    }
  })();
  await load();
  loading = false;
  await pinger;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    max: sorted.at(-1),
    p99: sorted[Math.floor(sorted.length * 0.99)],
    count: sorted.length,
  };
}

async function pipFigures(depot) {
  const tree = join(work, 'pep503');
  const names = Array.from({ length: WHEELS }, (_, i) => `bench-wheel-${i}`);
  mkdirSync(join(tree, 'files'), { recursive: true });
  for (const name of names) {
    const dist = await buildWheel({ name, version: '1.0.0' });
    const sha256 = createHash('sha256').update(dist.content).digest('hex');
    writeFileSync(join(tree, 'files', dist.filename), dist.content);
    mkdirSync(join(tree, 'simple', name), { recursive: true });
    writeFileSync(
      join(tree, 'simple', name, 'index.html'),
      `<!DOCTYPE html><html><body><a href="../../files/${dist.filename}#sha256=${sha256}">${dist.filename}</a></body></html>\n`,
    );
    const form = new FormData();
    for (const [key, value] of Object.entries({
      ':action': 'file_upload',
      name,
      version: '1.0.0',
      sha256_digest: sha256,
    }))
      form.set(key, value);
    form.set('content', new Blob([dist.content]), dist.filename);
    const uploaded = await fetch(`${depot}/artifactory/api/pypi/pypi-local`, {
      method: 'POST',
      headers: { authorization: BASIC },
      body: form,
    });
    if (!uploaded.ok) throw new Error(`upload ${name}: ${uploaded.status}`);
  }
  const port = freePort();
  children.push(
    spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1'], {
      cwd: tree,
      stdio: 'ignore',
    }),
  );
  const staticIndex = `http://127.0.0.1:${port}/simple`;
  await waitFor(`${staticIndex}/`);
  const depotIndex = `${depot.replace('://', `://admin:${ADMIN}@`)}/artifactory/api/pypi/pypi-local/simple`;
  const pip = async (index) => {
    const target = mkdtempSync(join(work, 'site-'));
    const start = process.hrtime.bigint();
    await run(
      'python3',
      [
        '-m',
        'pip',
        'install',
        '--no-cache-dir',
        '--quiet',
        '--target',
        target,
        '--index-url',
        index,
        ...names,
      ],
      {
        env: {
          PATH: process.env.PATH,
          HOME: work,
          PIP_CONFIG_FILE: '/dev/null',
          PIP_DISABLE_PIP_VERSION_CHECK: '1',
        },
      },
    );
    const took = seconds(start);
    rmSync(target, { recursive: true, force: true });
    return took;
  };
  const times = { depot: [], static: [] };
  for (let i = 0; i < RUNS; i++) {
    times.depot.push(await pip(depotIndex));
    times.static.push(await pip(staticIndex));
  }
  return { depot: median(times.depot), static: median(times.static) };
}

async function publishAll(depotRegistry, verdaccio) {
  console.log(`Publishing ${PACKAGES} packages x ${VERSIONS.length} versions to both...`);
  for (let i = 0; i < PACKAGES; i++) {
    for (const version of VERSIONS) {
      const document = await benchDocument(`bench-pkg-${i}`, version, dependenciesOf(i));
      await publish(depotRegistry, BASIC, document);
      await publish(`${verdaccio.base}/`, `Bearer ${verdaccio.token}`, document);
    }
  }
}

// Both read anonymously here, as Verdaccio's packages are `access: $all` (its tokens cost a
// bcrypt check per request, which would make it look slower than it is); Depot is measured
// with basic auth as well, the way a team with anonymous access off would use it.
async function installFigures(depot, depotRegistry, verdaccio) {
  console.log(`npm install, ${RUNS} timed runs each (median)...`);
  const withAuth = await timedInstalls('depot-auth', depotRegistry, `_auth=${BASIC.slice(6)}`);
  const enabled = await fetch(`${depot}/ui/api/v1/ui/securityconfig`, {
    method: 'PUT',
    headers: { authorization: BASIC, 'content-type': 'application/json' },
    body: JSON.stringify({ anonAccessEnabled: true }),
  });
  if (!enabled.ok) throw new Error(`anonymous access: ${enabled.status} ${await enabled.text()}`);
  const anonymous = await timedInstalls('depot', depotRegistry, 'always-auth=false');
  const theirs = await timedInstalls('verdaccio', `${verdaccio.base}/`, 'always-auth=false');
  const floor = await timedInstalls('offline', `${verdaccio.base}/`, 'always-auth=false', true);
  return [
    [
      'npm install --offline, no registry asked (s)',
      floor,
      theirs,
      'Verdaccio',
      floor / theirs,
      'the floor',
    ],
    [
      'npm install, 300 packages, anonymous (s)',
      anonymous,
      theirs,
      'Verdaccio',
      anonymous / theirs,
      '<= 0.8',
    ],
    [
      'npm install, Depot with basic auth (s)',
      withAuth,
      theirs,
      'Verdaccio',
      withAuth / theirs,
      '',
    ],
  ];
}

async function requestsFigure(autocannon, depotRegistry, verdaccio) {
  console.log('Packument requests per second (autocannon, 10 s each)...');
  const accept = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';
  const ours = await requestsPerSecond(autocannon, `${depotRegistry}bench-pkg-7`, {
    accept,
    authorization: BASIC,
  });
  const theirs = await requestsPerSecond(autocannon, `${verdaccio.base}/bench-pkg-7`, { accept });
  return ['packument requests/s', ours, theirs, 'Verdaccio', ours / theirs, '>= 2'];
}

async function bigPackumentFigure(depot, depotRegistry) {
  console.log(`A packument of ${BIG_VERSIONS} versions...`);
  const padding = 'x'.repeat(4000);
  for (let v = 0; v < BIG_VERSIONS; v++) {
    const document = await benchDocument(
      'bench-big',
      `1.0.${v}`,
      { 'bench-pkg-1': '^1.0.0' },
      {
        description: padding,
      },
    );
    await publish(depotRegistry, BASIC, document);
  }
  const bigUrl = `${depotRegistry}bench-big`;
  const bigBytes = (
    await (await fetch(bigUrl, { headers: { authorization: BASIC } })).arrayBuffer()
  ).byteLength;
  // A change to the package: the first fetch below builds the document again.
  await fetch(`${depotRegistry}-/package/bench-big/dist-tags/bench`, {
    method: 'PUT',
    headers: { authorization: BASIC, 'content-type': 'application/json' },
    body: JSON.stringify('1.0.7'),
  });
  const fetchBig = async (accept) => {
    for (let i = 0; i < 10; i++)
      await (await fetch(bigUrl, { headers: { authorization: BASIC, accept } })).arrayBuffer();
  };
  const blocking = await pingLatencyDuring(depot, () =>
    Promise.all([fetchBig('application/json'), fetchBig('application/vnd.npm.install-v1+json')]),
  );
  const merged = await mergedPackumentBlocking(depot, padding);
  return (
    `Packument of ${BIG_VERSIONS} versions: ${(bigBytes / 1e6).toFixed(1)} MB. While two clients fetched it ` +
    `10 times each (full and abbreviated, the first right after a change), ${blocking.count} pings to the same ` +
    `Depot waited at most ${blocking.max.toFixed(1)} ms (p99 ${blocking.p99.toFixed(1)} ms; goal: no event-loop block of 50 ms).\n` +
    `Through a virtual repository merging it with another member's ${MERGED_VERSIONS} versions ` +
    `(${(merged.bytes / 1e6).toFixed(1)} MB merged): ${merged.count} pings waited at most ${merged.max.toFixed(1)} ms ` +
    `(p99 ${merged.p99.toFixed(1)} ms).`
  );
}

const MERGED_VERSIONS = 200;

/**
 * The same package in a second member, then the virtual's merged document fetched as above:
 * the merge parses and writes both members' documents (in a worker thread, merge.ts).
 */
async function mergedPackumentBlocking(depot, padding) {
  const otherRegistry = `${depot}/artifactory/api/npm/npm-other/`;
  for (let v = 0; v < MERGED_VERSIONS; v++) {
    const document = await benchDocument('bench-big', `2.0.${v}`, {}, { description: padding });
    await publish(otherRegistry, BASIC, document);
  }
  const mergedUrl = `${depot}/artifactory/api/npm/npm-merged/bench-big`;
  const bytes = (
    await (await fetch(mergedUrl, { headers: { authorization: BASIC } })).arrayBuffer()
  ).byteLength;
  const fetchMerged = async (accept) => {
    for (let i = 0; i < 10; i++)
      await (await fetch(mergedUrl, { headers: { authorization: BASIC, accept } })).arrayBuffer();
  };
  const blocking = await pingLatencyDuring(depot, () =>
    Promise.all([
      fetchMerged('application/json'),
      fetchMerged('application/vnd.npm.install-v1+json'),
    ]),
  );
  return { bytes, ...blocking };
}

async function main() {
  execFileSync(process.execPath, ['scripts/prepare-start.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const autocannon = await ensureAutocannon();
  const [depot, verdaccio] = await Promise.all([startDepot(), startVerdaccio()]);
  const depotRegistry = `${depot}/artifactory/api/npm/npm-local/`;
  const rows = [];
  let bigLine = '';
  if (PARTS.has('install') || PARTS.has('rps')) await publishAll(depotRegistry, verdaccio);
  if (PARTS.has('install')) rows.push(...(await installFigures(depot, depotRegistry, verdaccio)));
  if (PARTS.has('rps')) rows.push(await requestsFigure(autocannon, depotRegistry, verdaccio));
  if (PARTS.has('big')) bigLine = await bigPackumentFigure(depot, depotRegistry);
  if (PARTS.has('pip')) {
    console.log(`pip install of ${WHEELS} wheels, ${RUNS} runs each (median)...`);
    const pip = await pipFigures(depot);
    rows.push([
      'pip install, 50 wheels (s)',
      pip.depot,
      pip.static,
      'http.server',
      pip.depot / pip.static,
      '<= 1.2',
    ]);
  }
  console.log(
    '\n| figure | Depot | peer | peer name | ratio | goal |\n| --- | --- | --- | --- | --- | --- |',
  );
  for (const [figure, ours, theirs, peer, ratio, goal] of rows)
    console.log(
      `| ${figure} | ${ours.toFixed(2)} | ${theirs.toFixed(2)} | ${peer} | ${ratio.toFixed(2)} | ${goal} |`,
    );
  if (bigLine) console.log(`\n${bigLine}`);
}

try {
  await main();
} finally {
  for (const child of children) child.kill('SIGTERM');
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
