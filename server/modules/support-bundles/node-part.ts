import { statSync } from 'node:fs';
import { hostname, loadavg, totalmem, freemem } from 'node:os';
import { join } from 'node:path';
import { listLogFiles } from '../system-logs/log-reader.ts';
import { redact, redactEnvironment, withoutEnvironmentValues } from './redact.ts';

/** A file of a node's part: read from `path` (a log) or given whole (`content`). */
export interface NodeFile {
  /** Its name in the bundle: `logs/<node>/<file>`, `diagnostics/<node>/report.json`. */
  name: string;
  path?: string;
  content?: Buffer;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** Each log file written to since the first day of the range (by its last write), whole. */
function logFiles(logDir: string, nodeId: string, logFrom: string): NodeFile[] {
  const from = Date.parse(`${logFrom}T00:00:00Z`);
  const files: NodeFile[] = [];
  for (const name of listLogFiles(logDir)) {
    const path = join(logDir, name);
    let modified: number;
    try {
      modified = statSync(path).mtimeMs;
    } catch {
      continue; // a live log not written yet, or rotated away meanwhile
    }
    if (modified >= from) files.push({ name: `logs/${nodeId}/${name}`, path });
  }
  return files;
}

/**
 * Node's diagnostic report, with the environment's values hidden (DEPOT_* secrets): in its
 * environment section, and wherever else one shows (a worker's copy, a command line).
 */
function diagnosticReport(nodeId: string): NodeFile {
  const report = process.report.getReport() as unknown as Record<string, unknown>;
  const safe = {
    ...report,
    environmentVariables: redactEnvironment(
      (report.environmentVariables as Record<string, unknown> | undefined) ?? {},
    ),
    header: redact(report.header),
  };
  return {
    name: `diagnostics/${nodeId}/report.json`,
    content: Buffer.from(withoutEnvironmentValues(json(safe).toString())),
  };
}

/** What this node itself looks like: its host, load and memory (system/info.json is the maker's). */
function nodeInfo(nodeId: string): NodeFile {
  return {
    name: `diagnostics/${nodeId}/node.json`,
    content: json({
      id: nodeId,
      hostname: hostname(),
      uptimeSeconds: Math.round(process.uptime()),
      loadavg: loadavg(),
      memory: { totalBytes: totalmem(), freeBytes: freemem(), process: process.memoryUsage() },
    }),
  };
}

/** One node's part of a bundle: its logs of the range, its diagnostic report and its state. */
export const nodePartFiles = (logDir: string, nodeId: string, logFrom: string): NodeFile[] => [
  ...logFiles(logDir, nodeId, logFrom),
  diagnosticReport(nodeId),
  nodeInfo(nodeId),
];
