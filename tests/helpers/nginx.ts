import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.ts';

/** nginx in front of several Depot nodes, as docs/cluster.md sets it up. */
export interface NginxBalancer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** nginx's main configuration around `http`, the contents of its `http {}` block. */
function mainConfig(dir: string, http: string): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return `
daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 256; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
${http}
}
`;
}

/**
 * The configuration docs/cluster.md gives, with the test's ports: round robin over the
 * nodes, bodies streamed both ways (no buffering: uploads and downloads of any size), the
 * client's address and scheme passed on, and a node that refuses connections skipped for
 * the next one.
 */
export function clusterConfig(listenPort: number, nodePorts: number[]): string {
  return `
  upstream depot {
    ${nodePorts.map((port) => `server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`).join('\n    ')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${listenPort};
    client_max_body_size 0;
    location / {
      proxy_pass http://depot;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_request_buffering off;
      proxy_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout http_502;
    }
  }`;
}

/**
 * Starts Debian's nginx in the foreground with `http` as its `http {}` block (written as
 * its own file and included, as nginx's conf.d is), once `probeUrl` answers; `stop` ends it
 * and removes its directory.
 */
export async function startNginxWith(
  http: string,
  probeUrl: string,
): Promise<{ stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'depot-nginx-'));
  for (const name of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(join(dir, name));
  writeFileSync(join(dir, 'depot.conf'), http);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, mainConfig(dir, `  include ${join(dir, 'depot.conf')};`));
  const nginx: ChildProcess = spawn('nginx', ['-c', conf, '-p', dir], { stdio: 'ignore' });
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  const stop = async () => {
    if (nginx.exitCode === null) nginx.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10000;
  for (;;) {
    const answered = await fetch(probeUrl).catch(() => undefined);
    if (answered) return { stop };
    if (nginx.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error("nginx did not start (is Debian's nginx installed?)");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts Debian's nginx in front of the nodes on a free loopback port; `stop` ends it. */
export async function startNginx(nodePorts: number[]): Promise<NginxBalancer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const { stop } = await startNginxWith(
    clusterConfig(port, nodePorts),
    `${baseUrl}/artifactory/api/system/ping`,
  );
  return { baseUrl, stop };
}
