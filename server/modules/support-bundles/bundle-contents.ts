import { createReadStream, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { arch, cpus, freemem, hostname, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { ZipFile } from 'yazl';
import type { DepotConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { listLogFiles } from '../system-logs/log-reader.ts';
import { blobTotals, configurationRows, databaseStats } from './queries.ts';
import { redact, redactEnvironment, withoutEnvironmentValues } from './redact.ts';

export interface BundleRange {
  /** ISO dates (YYYY-MM-DD): the logs written from `from` to the end of `to`. */
  from: string;
  to: string;
}

export interface BundleSources {
  db: Database;
  config: DepotConfig;
  logDir: string;
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

/** Each log file written to in the range (by its last write), whole, streamed from disk. */
const logs: BundlePart = async (zip, { logDir }, range) => {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const added: string[] = [];
  for (const name of listLogFiles(logDir)) {
    const path = join(logDir, name);
    let modified: number;
    try {
      modified = statSync(path).mtimeMs;
    } catch {
      continue; // a live log not written yet, or rotated away meanwhile
    }
    if (modified < from) continue;
    zip.addReadStream(createReadStream(path), `logs/${name}`);
    added.push(`logs/${name}`);
  }
  return added;
};

/**
 * Node's diagnostic report, with the environment's values hidden (DEPOT_* secrets): in its
 * environment section, and wherever else one shows (a worker's copy, a command line).
 */
const diagnostics: BundlePart = async (zip) => {
  const report = process.report.getReport() as unknown as Record<string, unknown>;
  const safe = {
    ...report,
    environmentVariables: redactEnvironment(
      (report.environmentVariables as Record<string, unknown> | undefined) ?? {},
    ),
    header: redact(report.header),
  };
  zip.addBuffer(
    Buffer.from(withoutEnvironmentValues(json(safe).toString())),
    'diagnostics/report.json',
  );
  return ['diagnostics/report.json'];
};

const statistics: BundlePart = async (zip, { db, config }) => {
  zip.addBuffer(json(await databaseStats(db)), 'statistics/database.json');
  zip.addBuffer(
    json({ ...(await blobTotals(db)), disk: await diskOf(config.filestoreDir) }),
    'statistics/filestore.json',
  );
  return ['statistics/database.json', 'statistics/filestore.json'];
};

/** The parts in the order they are written; the manifest comes last. */
export const BUNDLE_PARTS: Array<[name: string, part: BundlePart]> = [
  ['system information', systemInfo],
  ['configuration', configuration],
  ['logs', logs],
  ['diagnostic report', diagnostics],
  ['database and filestore statistics', statistics],
];

export const manifestEntry = (manifest: unknown): [Buffer, string] => [
  json(manifest),
  'manifest.json',
];
