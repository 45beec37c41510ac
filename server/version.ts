import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from './paths.ts';

export interface VersionInfo {
  version: string;
  revision: string;
}

const ROOT = PROJECT_ROOT;

/** The package version, and the git revision when running from a checkout. */
export function readVersion(): VersionInfo {
  const { version } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  let revision = 'unknown';
  try {
    revision = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    })
      .toString()
      .trim();
  } catch {
    // Not a git checkout (an installed copy): keep the fallback.
  }
  return { version, revision };
}
