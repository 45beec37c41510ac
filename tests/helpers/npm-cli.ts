import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';

const run = promisify(execFile);

/** The real npm CLI with its own config, cache and registry: nothing of the machine's leaks in. */
export interface NpmCli {
  home: string;
  /** Runs npm in `cwd`; answers stdout and stderr. Rejects on a non-zero exit. */
  npm(args: string[], cwd?: string): Promise<{ stdout: string; stderr: string }>;
  /**
   * Runs npm and answers its prompts, each when it appears (npm reads one line per prompt,
   * and drops what it read ahead); answers its exit code and everything it printed.
   */
  npmAnswering(
    args: string[],
    answers: Record<string, string>,
  ): Promise<{ code: number | null; output: string }>;
  /**
   * Starts npm and calls `onOutput` with everything it printed so far, each time it prints
   * (to act on a URL it shows, as a user would); answers its exit code and output.
   */
  npmWatching(
    args: string[],
    onOutput: (output: string) => void,
  ): Promise<{ code: number | null; output: string }>;
  /** Writes a package folder with package.json, index.js and a README; answers its path. */
  packageDir(manifest: Record<string, unknown>, readme?: string): string;
  close(): void;
}

/** `.npmrc` lines: the default registry and a token for each registry URL given. */
export function npmrc(registry: string, auth: Record<string, string>): string {
  const lines = [`registry=${registry}`];
  for (const [url, credential] of Object.entries(auth)) {
    const nerfDart = url.replace(/^https?:/, '');
    lines.push(`${nerfDart}:${credential}`);
  }
  return `${lines.join('\n')}\n`;
}

export function npmCli(userconfig: string): NpmCli {
  const home = mkdtempSync(join(tmpdir(), 'depot-npm-'));
  const configPath = join(home, '.npmrc');
  writeFileSync(configPath, userconfig);
  // npm run passes its own npm_config_* down; the CLI under test must see ours only.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_config_')),
  );
  Object.assign(env, {
    HOME: home,
    npm_config_userconfig: configPath,
    npm_config_globalconfig: join(home, 'globalrc'),
    npm_config_cache: join(home, 'cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'warn',
  });
  let packages = 0;
  return {
    home,
    npm: (args, cwd = home) => run('npm', args, { cwd, env, timeout: 120_000 }),
    npmWatching: (args, onOutput) =>
      new Promise((resolve, reject) => {
        const child = spawn('npm', args, { cwd: home, env, timeout: 120_000 });
        child.stdin.end();
        let output = '';
        const hear = (chunk: Buffer) => {
          output += chunk.toString();
          onOutput(output);
        };
        child.stdout.on('data', hear);
        child.stderr.on('data', hear);
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
      }),
    npmAnswering: (args, answers) =>
      new Promise((resolve, reject) => {
        const child = spawn('npm', args, { cwd: home, env, timeout: 120_000 });
        const pending = Object.entries(answers);
        let output = '';
        const hear = (chunk: Buffer) => {
          output += chunk.toString();
          const [prompt, answer] = pending[0] ?? [];
          if (prompt !== undefined && output.endsWith(`${prompt} `)) {
            pending.shift();
            child.stdin.write(`${answer}\n`);
            if (pending.length === 0) child.stdin.end();
          }
        };
        child.stdout.on('data', hear);
        child.stderr.on('data', hear);
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
      }),
    packageDir(manifest, readme = `# ${String(manifest.name)}\n`) {
      const dir = join(home, `package-${++packages}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
      writeFileSync(join(dir, 'index.js'), `module.exports = ${JSON.stringify(manifest.name)};\n`);
      writeFileSync(join(dir, 'README.md'), readme);
      return dir;
    },
    close: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** A package tarball as npm packs it (`package/...`), with whatever package.json is given. */
export async function packTarball(files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files))
    pack.entry({ name: `package/${name}` }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack.pipe(createGzip())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A publish document as npm builds it, around a tarball. */
export function publishDocument(name: string, version: string, tarball: Buffer, extra = {}) {
  const file = `${name.split('/').pop()}-${version}.tgz`;
  return {
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: {
      [version]: {
        name,
        version,
        dist: {
          shasum: createHash('sha1').update(tarball).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
          tarball: `http://example.invalid/${name}/-/${file}`,
        },
        ...extra,
      },
    },
    _attachments: {
      [file]: {
        content_type: 'application/octet-stream',
        data: tarball.toString('base64'),
        length: tarball.length,
      },
    },
  };
}
