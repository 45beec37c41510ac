// Types of depot.mjs for the TypeScript benchmarks.
import type { ChildProcess } from 'node:child_process';

export const NODE_FLAGS: string[];
export const SERVER_BUNDLE: string;

export function startBuiltDepot(options: {
  home: string;
  port: number;
  adminPassword: string;
  env?: Record<string, string>;
  bundle?: string;
  waitSeconds?: number;
  stderrFile?: string;
}): Promise<ChildProcess>;
