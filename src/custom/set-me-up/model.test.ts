import { allSettled, fork } from 'effector';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/ApiError';
import {
  $server,
  serverSettingsFx,
  $dockerHost,
  $unlockError,
  unlockFx,
  unlockSubmitted,
  $dockerHosts,
  dataFx,
  dockerMethodChosen,
  repoChosen,
  reverseProxyFx,
  setMeUpOpened,
  toolChosen,
} from './model';

const repo = (repoKey: string) => ({
  repoKey,
  repoType: 'docker',
  canRead: true,
  canDeploy: true,
  isLocal: true,
  isRemote: false,
  isVirtual: false,
  isDefaultDeploymentConfigured: false,
});

/** Set Me Up's Docker access methods without a network (fork with handlers). */
describe('the Set Me Up model', () => {
  it("offers the reverse proxy's methods, the configured one first, and follows a choice", async () => {
    const scope = fork({
      handlers: [
        [
          dataFx,
          async () => ({
            baseUrl: 'http://depot.test:8082/artifactory',
            hostname: 'depot.test',
            npmBaseUrl: '',
            repoKeyTypes: [repo('docker-local'), repo('docker-other')],
          }),
        ],
        [
          reverseProxyFx,
          async () => ({
            serverName: 'depot.example',
            dockerReverseProxyMethod: 'portPerRepo' as const,
            reverseProxyRepositories: [{ repoKey: 'docker-local', port: 5001 }],
            useHttp: true,
            useHttps: false,
            httpPort: 80,
            httpsPort: 443,
          }),
        ],
      ],
    });
    await allSettled(toolChosen, { scope, params: 'docker' });
    await allSettled(setMeUpOpened, { scope });
    expect(scope.getState($dockerHosts).map((h) => h.method)).toEqual([
      'portPerRepo',
      'repoPathPrefix',
      'subDomain',
    ]);
    expect(scope.getState($dockerHost)?.host).toBe('depot.example:5001');
    await allSettled(dockerMethodChosen, { scope, params: 'subDomain' });
    expect(scope.getState($dockerHost)?.host).toBe('docker-local.depot.example');
    // Another repository has no port of its own: its first method, the repository path.
    await allSettled(repoChosen, { scope, params: 'docker-other' });
    expect(scope.getState($dockerHost)?.host).toBe('depot.test:8082');
  });

  it('falls back to the repository path when the reverse proxy data cannot be read', async () => {
    const scope = fork({
      handlers: [
        [
          dataFx,
          async () => ({
            baseUrl: 'http://depot.test:8082/artifactory',
            hostname: 'depot.test',
            npmBaseUrl: '',
            repoKeyTypes: [repo('docker-local')],
          }),
        ],
        [reverseProxyFx, async () => ({})],
      ],
    });
    await allSettled(toolChosen, { scope, params: 'docker' });
    await allSettled(setMeUpOpened, { scope });
    expect(scope.getState($dockerHosts).map((h) => h.host)).toEqual(['depot.test:8082']);
  });
});

describe("Set Me Up's unlock errors (spec 03 §8)", () => {
  const failWith = (error: unknown) =>
    fork({
      handlers: [
        [
          unlockFx,
          async () => {
            throw error;
          },
        ],
      ],
    });
  const apiError = (status: number | undefined, body?: unknown) =>
    new ApiError({ message: 'HTTP error', status, body, method: 'POST', url: '/x' });

  it("shows the server's message, otherwise 'An error occurred'", async () => {
    const worded = failWith(apiError(401, { errors: [{ message: 'The password is incorrect' }] }));
    await allSettled(unlockSubmitted, { scope: worded, params: 'pw' });
    expect(worded.getState($unlockError)).toBe('The password is incorrect');
    for (const silent of [apiError(500), apiError(undefined)]) {
      const scope = failWith(silent);
      await allSettled(unlockSubmitted, { scope, params: 'pw' });
      expect(scope.getState($unlockError)).toBe('An error occurred');
    }
  });

  it('keeps the settings of the repository chosen now when an earlier choice is answered late', async () => {
    let answerFirst: (settings: Record<string, string>) => void = () => {};
    const settingsOf = vi.fn(async ({ repoKey }: { repoKey: string }) =>
      repoKey === 'libs-first'
        ? new Promise<Record<string, string>>((resolve) => (answerFirst = resolve))
        : { settings: `<settings for="${repoKey}"/>` },
    );
    const scope = fork({ handlers: [[serverSettingsFx, settingsOf]] });
    await allSettled(toolChosen, { scope, params: 'maven' });
    const first = allSettled(repoChosen, { scope, params: 'libs-first' });
    const second = allSettled(repoChosen, { scope, params: 'libs-second' });
    await vi.waitFor(() =>
      expect(scope.getState($server)).toEqual({ settings: '<settings for="libs-second"/>' }),
    );
    answerFirst({ settings: '<settings for="libs-first"/>' });
    await Promise.all([first, second]);
    expect(settingsOf).toHaveBeenCalledTimes(2);
    expect(scope.getState($server)).toEqual({ settings: '<settings for="libs-second"/>' });
  });
});
