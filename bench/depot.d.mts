// Types of depot.mjs for the TypeScript benchmarks.
import type { ChildProcess } from 'node:child_process';

export const NODE_FLAGS: string[];

export function startBuiltDepot(options: {
  home: string;
  port: number;
  adminPassword: string;
  env?: Record<string, string>;
  waitSeconds?: number;
}): Promise<ChildProcess>;
