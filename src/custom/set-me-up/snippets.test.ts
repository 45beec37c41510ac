import { describe, expect, it } from 'vitest';
import {
  SNIPPET_SECRET,
  SNIPPET_USERNAME,
} from '../../../server/modules/set-me-up/placeholders.ts';
import { dockerRegistryHosts } from '../../../server/modules/reverse-proxy/docker-hosts.ts';
import { snippetsFor } from './snippets';

const context = { baseUrl: 'http://depot.test:8082/artifactory', repoKey: 'npm' };

describe('Set Me Up snippets', () => {
  it('keeps placeholders until the credentials are unlocked', () => {
    const locked = snippetsFor('pypi', { ...context, repoKey: 'pypi' });
    expect(locked.read[0]!.text).toContain(`${SNIPPET_USERNAME}:${SNIPPET_SECRET}@`);
    const unlocked = snippetsFor(
      'pypi',
      { ...context, repoKey: 'pypi' },
      { userName: 'jo', secret: 'KEY' },
    );
    expect(unlocked.read[0]!.text).toBe(
      '[global]\nindex-url = http://jo:KEY@depot.test:8082/artifactory/api/pypi/pypi/simple\n',
    );
  });

  it('writes an .npmrc with basic auth for the repository', () => {
    const { read } = snippetsFor('npm', context, { userName: 'jo', secret: 'KEY' });
    expect(read[0]!.text).toBe(
      'registry=http://depot.test:8082/artifactory/api/npm/npm/\n' +
        `//depot.test:8082/artifactory/api/npm/npm/:_auth=${btoa('jo:KEY')}\n` +
        '//depot.test:8082/artifactory/api/npm/npm/:always-auth=true\n',
    );
  });

  it('puts the credentials into server-generated settings too', () => {
    const server = {
      settings: `<password>${SNIPPET_SECRET}</password>`,
      distributionManagement: '',
    };
    const { read } = snippetsFor(
      'maven',
      { ...context, server },
      { userName: 'jo', secret: 'KEY' },
    );
    expect(read[0]!.text).toBe('<password>KEY</password>');
  });

  it('gives SBT, Ivy and generic their resolve and deploy sections, credentials put in', () => {
    const credentials = { userName: 'jo', secret: 'KEY' };
    const sbt = snippetsFor('sbt', { ...context, repoKey: 'sbt' }, credentials);
    expect(sbt.read.map((s) => s.text)).toEqual([
      '[repositories]\nlocal\ndepot: http://depot.test:8082/artifactory/sbt/\n',
      'realm=Depot\nhost=depot.test\nuser=jo\npassword=KEY\n',
    ]);
    expect(sbt.deploy[0]!.text).toContain(
      'publishTo := Some("Depot" at "http://depot.test:8082/artifactory/sbt")',
    );
    const ivy = snippetsFor(
      'ivy',
      { ...context, repoKey: 'ivy', server: { ivySettings: `passwd="${SNIPPET_SECRET}"` } },
      credentials,
    );
    expect(ivy.read[0]!.text).toBe('passwd="KEY"');
    expect(ivy.deploy[0]!.text).toContain('<ivy:publish resolver="main"');
    const generic = snippetsFor('generic', { ...context, repoKey: 'files' }, credentials);
    expect(generic.read[0]!.text).toBe(
      'curl -ujo:KEY -O "http://depot.test:8082/artifactory/files/<TARGET_FILE_PATH>"',
    );
    expect(generic.deploy[0]!.text).toBe(
      'curl -ujo:KEY -T <PATH_TO_FILE> "http://depot.test:8082/artifactory/files/<TARGET_FILE_PATH>"',
    );
  });

  it('gives Docker the login, pull, tag and push lines with the real host and port', () => {
    const docker = snippetsFor(
      'docker',
      { ...context, repoKey: 'docker-local' },
      { userName: 'jo', secret: 'KEY' },
    );
    expect(docker.general.map((s) => s.text)).toEqual([
      "echo 'KEY' | docker login -u jo --password-stdin depot.test:8082",
      '{ "insecure-registries": ["depot.test:8082"] }\n',
    ]);
    expect(docker.read[0]!.text).toBe(
      'docker pull depot.test:8082/docker-local/<IMAGE_NAME>:<TAG>',
    );
    expect(docker.deploy.map((s) => s.text)).toEqual([
      'docker tag <IMAGE_NAME>:<TAG> depot.test:8082/docker-local/<IMAGE_NAME>:<TAG>',
      'docker push depot.test:8082/docker-local/<IMAGE_NAME>:<TAG>',
    ]);
    // Behind TLS, no insecure-registries line.
    const tls = snippetsFor('docker', {
      baseUrl: 'https://depot.example/artifactory',
      repoKey: 'docker-local',
    });
    expect(tls.general.map((s) => s.title)).toEqual(['Log in']);
    expect(tls.general[0]!.text).toContain(`-u ${SNIPPET_USERNAME} --password-stdin depot.example`);
  });

  it('names the Docker registry host of each reverse proxy method, the configured one first', () => {
    const proxy = {
      serverName: 'depot.example',
      dockerReverseProxyMethod: 'subDomain' as const,
      reverseProxyRepositories: [{ repoKey: 'docker-local', port: 5001 }],
      useHttp: false,
      useHttps: true,
      httpPort: 80,
      httpsPort: 443,
    };
    const base = 'http://depot.test:8082/artifactory';
    const hosts = dockerRegistryHosts(base, 'docker-local', proxy);
    expect(hosts.map((h) => [h.method, h.host, h.imagePrefix, h.plainHttp])).toEqual([
      ['subDomain', 'docker-local.depot.example', '', false],
      ['repoPathPrefix', 'depot.test:8082', 'docker-local/', true],
      ['portPerRepo', 'depot.example:5001', '', false],
    ]);
    // A repository without a port of its own has no Port method; plain HTTP on 8080 keeps the port.
    const other = dockerRegistryHosts(base, 'docker-other', {
      ...proxy,
      dockerReverseProxyMethod: 'portPerRepo',
      useHttps: false,
      useHttp: true,
      httpPort: 8080,
    });
    expect(other.map((h) => [h.method, h.host])).toEqual([
      ['repoPathPrefix', 'depot.test:8082'],
      ['subDomain', 'docker-other.depot.example:8080'],
    ]);
    // Without a server name the proxy offers nothing but the repository path.
    expect(dockerRegistryHosts(base, 'docker-local', {}).map((h) => h.method)).toEqual([
      'repoPathPrefix',
    ]);

    const byPort = snippetsFor('docker', {
      baseUrl: base,
      repoKey: 'docker-local',
      dockerHost: hosts[2],
    });
    expect(byPort.general.map((s) => s.title)).toEqual(['Log in']);
    expect(byPort.general[0]!.text).toContain('--password-stdin depot.example:5001');
    expect(byPort.read[0]!.text).toBe('docker pull depot.example:5001/<IMAGE_NAME>:<TAG>');
    expect(byPort.deploy.map((s) => s.text)).toEqual([
      'docker tag <IMAGE_NAME>:<TAG> depot.example:5001/<IMAGE_NAME>:<TAG>',
      'docker push depot.example:5001/<IMAGE_NAME>:<TAG>',
    ]);
    const bySubDomain = snippetsFor('docker', {
      baseUrl: base,
      repoKey: 'docker-local',
      dockerHost: hosts[0],
    });
    expect(bySubDomain.read[0]!.text).toBe(
      'docker pull docker-local.depot.example/<IMAGE_NAME>:<TAG>',
    );
  });
});
