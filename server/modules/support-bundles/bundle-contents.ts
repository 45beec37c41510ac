import { statfs } from 'node:fs/promises';
import { arch, cpus, freemem, hostname, loadavg, platform, release, totalmem } from 'node:os';
import type { ZipFile } from 'yazl';
import type { DepotConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { blobTotals, configurationRows, databaseStats } from './queries.ts';
import { redact } from './redact.ts';

export interface BundleRange {
  /** ISO dates (YYYY-MM-DD): the logs written from `from` to the end of `to`. */
  from: string;
  to: string;
}

export interface BundleSources {
  db: Database;
  config: DepotConfig;
  version: { version: string; revision?: string };
}

/** One part of a bundle: adds its entries to the zip and says which it added. */
export type BundlePart = (
  zip: ZipFile,
  sources: BundleSources,
  range: BundleRange,
) => Promise<string[]>;

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

async function diskOf(path: string) {
  try {
    const disk = await statfs(path);
    return { path, totalBytes: disk.blocks * disk.bsize, freeBytes: disk.bavail * disk.bsize };
  } catch {
    return { path, unavailable: true };
  }
}

const systemInfo: BundlePart = async (zip, { db, config, version }) => {
  const info = {
    depot: version,
    node: { id: config.nodeId, hostname: hostname(), uptimeSeconds: Math.round(process.uptime()) },
    nodejs: process.versions,
    os: { platform: platform(), release: release(), arch: arch(), loadavg: loadavg() },
    cpu: { count: cpus().length, model: cpus()[0]?.model },
    memory: { totalBytes: totalmem(), freeBytes: freemem(), process: process.memoryUsage() },
    disk: [await diskOf(config.home), await diskOf(config.filestoreDir)],
    database: {
      kind: config.databaseUrl ? 'postgresql' : 'embedded',
      version: (await databaseStats(db)).version,
    },
  };
  zip.addBuffer(json(info), 'system/info.json');
  return ['system/info.json'];
};

const configuration: BundlePart = async (zip, { db, config }) => {
  const { settings, repositories } = await configurationRows(db);
  zip.addBuffer(json(redact(config)), 'configuration/depot-config.json');
  zip.addBuffer(
    json(Object.fromEntries(settings.map((row) => [row.key, redact(row.value, row.key)]))),
    'configuration/settings.json',
  );
  zip.addBuffer(json(redact(repositories)), 'configuration/repositories.json');
  return [
    'configuration/depot-config.json',
    'configuration/settings.json',
    'configuration/repositories.json',
  ];
};

const statistics: BundlePart = async (zip, { db, config }) => {
  zip.addBuffer(json(await databaseStats(db)), 'statistics/database.json');
  zip.addBuffer(
    json({ ...(await blobTotals(db)), disk: await diskOf(config.filestoreDir) }),
    'statistics/filestore.json',
  );
  return ['statistics/database.json', 'statistics/filestore.json'];
};

/**
 * The parts the node making a bundle writes once for the whole cluster, in order; each
 * node's logs and diagnostic report follow (node-part.ts), and the manifest comes last.
 */
export const BUNDLE_PARTS: Array<[name: string, part: BundlePart]> = [
  ['system information', systemInfo],
  ['configuration', configuration],
  ['database and filestore statistics', statistics],
];

export const manifestEntry = (manifest: unknown): [Buffer, string] => [
  json(manifest),
  'manifest.json',
];
