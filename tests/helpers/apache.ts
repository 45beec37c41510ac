import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MODULES = '/usr/lib/apache2/modules';
/** What Depot's generated configuration needs (server/modules/reverse-proxy/apache-config.ts). */
const NEEDED = ['mpm_event', 'authz_core', 'proxy', 'proxy_http', 'rewrite', 'headers'];

/** Apache's main configuration around `site`, everything in `dir`, as Debian's apache2.conf. */
function mainConfig(dir: string, site: string): string {
  return [
    `ServerRoot ${dir}`,
    `PidFile ${join(dir, 'httpd.pid')}`,
    `ErrorLog ${join(dir, 'error.log')}`,
    'LogLevel warn',
    `Mutex file:${dir} default`,
    // The workers only pass requests on: the same unprivileged user as Debian's.
    ...(process.getuid?.() === 0 ? ['User www-data', 'Group www-data'] : []),
    ...NEEDED.map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`),
    `Include ${site}`,
    '',
  ].join('\n');
}

/**
 * Starts Debian's Apache httpd (`apache2`) in the foreground with `site` (a generated
 * configuration, written as its own file and included, as sites-enabled is), once
 * `probeUrl` answers; `stop` ends it and removes its directory.
 */
export async function startApacheWith(
  site: string,
  probeUrl: string,
): Promise<{ stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'depot-apache-'));
  writeFileSync(join(dir, 'depot.conf'), site);
  const conf = join(dir, 'httpd.conf');
  writeFileSync(conf, mainConfig(dir, join(dir, 'depot.conf')));
  const apache: ChildProcess = spawn('/usr/sbin/apache2', ['-f', conf, '-DFOREGROUND'], {
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => apache.once('exit', resolve));
  const stop = async () => {
    if (apache.exitCode === null) apache.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10000;
  for (;;) {
    const answered = await fetch(probeUrl).catch(() => undefined);
    if (answered) return { stop };
    if (apache.exitCode !== null || Date.now() > deadline) {
      const log = (() => {
        try {
          return readFileSync(join(dir, 'error.log'), 'utf8');
        } catch {
          return '';
        }
      })();
      await stop();
      throw new Error(`Apache httpd did not start (is Debian's apache2 installed?)\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
