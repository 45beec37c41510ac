import { call } from '../../api/client';
import type { ReverseProxyData } from '../../../server/modules/reverse-proxy/docker-hosts.ts';

export interface RepoKeyType {
  repoKey: string;
  repoType: string;
  canRead: boolean;
  canDeploy: boolean;
  isLocal: boolean;
  isRemote: boolean;
  isVirtual: boolean;
  isDefaultDeploymentConfigured: boolean;
}

export interface SetMeUpData {
  baseUrl: string;
  hostname: string;
  npmBaseUrl: string;
  repoKeyTypes: RepoKeyType[];
}

/** Set Me Up's calls (server/modules/set-me-up). */
export const setMeUpApi = {
  data: () => call<SetMeUpData>('GET', '/ui/setMeUp'),
  /** The reverse proxy's Docker setup; a failure reads as none (spec 03: an empty object). */
  reverseProxy: () =>
    call<ReverseProxyData>('GET', '/ui/reverseProxyData').catch(
      () => ({}) as Partial<ReverseProxyData>,
    ),
  mavenSettings: (repoKey: string) =>
    call<{ settings: string }>('POST', '/ui/mavenSettings', {
      json: {
        release: repoKey,
        snapshot: repoKey,
        pluginRelease: repoKey,
        pluginSnapshot: repoKey,
      },
    }),
  distributionManagement: (repoKey: string) =>
    call<{ distributionManagement: string }>(
      'GET',
      `/ui/mavenDistributionManagement?${new URLSearchParams({ repoKey })}`,
    ),
  gradleSettings: (repoKey: string) =>
    call<{ buildGradle: string; gradleProperties: string }>('POST', '/ui/gradleSettings', {
      json: { pluginResolver: repoKey, libsResolver: repoKey, libsPublisher: repoKey },
    }),
  ivySettings: (repoKey: string) =>
    call<{ ivySettings: string }>('POST', '/ui/ivySettings', {
      json: { libsRepository: repoKey, m2Compatible: true },
    }),
  unlock: (password: string) =>
    call<{ userName: string; apiKey?: string }>('POST', '/ui/setMeUp/unlock', {
      json: { password },
    }),
  createApiKey: () => call<{ apiKey: string }>('POST', '/ui/userApiKey'),
};
