import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.ts';

/** A PostgreSQL cluster of a test's own, on loopback: `stop` removes it, even at exit. */
export interface ThrowawayPostgres {
  /** A superuser's URL of the `postgres` database. */
  url: string;
  stop(): void;
}

const isRoot = () => userInfo().uid === 0;

/** The newest PostgreSQL server binaries installed (Debian's layout, as CI has). */
function serverBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => Number(a) - Number(b));
  if (versions.length === 0)
    throw new Error('PostgreSQL server binaries not found: apt-get install postgresql');
  return join(root, versions.at(-1)!, 'bin');
}

/** The server refuses to run as root; as root, it runs as the postgres user. */
function runServerTool(tool: string, args: string[]) {
  const command = join(serverBinaries(), tool);
  if (isRoot())
    execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

/** Lets the server's user own `path` (a tablespace's directory, say). */
export function giveToPostgres(path: string) {
  if (isRoot()) execFileSync('chown', ['postgres', path]);
}

/** Starts a fresh cluster (as scripts/with-postgres.sh does) on a free port. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'depot-pg-'));
  giveToPostgres(dir);
  const data = join(dir, 'data');
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      runServerTool('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // not started, or already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  try {
    const port = await freePort();
    runServerTool('initdb', ['-D', data, '-U', 'depot', '--auth=trust', '--no-sync']);
    runServerTool('pg_ctl', [
      ...['-D', data, '-l', join(dir, 'server.log'), '-w', '-o'],
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
    return { url: `postgres://depot@127.0.0.1:${port}/postgres`, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
