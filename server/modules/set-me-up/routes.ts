import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, Forbidden, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { confirmOwnPassword } from '../users/confirm-password.ts';
import {
  distributionManagementXml,
  gradleSettings,
  ivySettingsXml,
  mavenSettingsXml,
  type GradleChoice,
  type IvyChoice,
  type MavenChoice,
} from './settings.ts';
import { ownAddress } from '../general-config/own-address.ts';

/** Set Me Up's own messages (the unlock's are confirmOwnPassword's). */
export const SET_ME_UP_MESSAGES = {
  unknownRepository: (key: string) => `Repository '${key}' could not be found`,
} as const;

const reader = { config: { permission: 'reader' as const } };

/**
 * Set Me Up (docs/set-me-up.md, spec 03 §2, §3): the repositories a user may use with what
 * they may do there, generated build-tool settings, and the unlock that lets the console put
 * the user's API key into the snippets after the password is typed again.
 */
export async function setMeUpRoutes(app: FastifyInstance, { services }: { services: Services }) {
  /** The repository keys the caller may read; a key they may not read is unknown to them. */
  async function readableKeys(request: FastifyRequest, keys: string[]) {
    const access = await services.access.forPrincipal(request.principal);
    for (const key of keys) {
      const repo = await services.repositories.findRow(key);
      if (!repo || !access.can('read', repo.key, '', 'folder'))
        throw new NotFound(SET_ME_UP_MESSAGES.unknownRepository(key));
    }
  }

  /** Where clients reach the artifacts: the configured base URL, else the request's address. */
  const artifactoryBase = async (request: FastifyRequest) =>
    `${await ownAddress(request, services.generalConfig)}/artifactory`;

  app.get('/ui/setMeUp', reader, async (request) => {
    const access = await services.access.forPrincipal(request.principal);
    const rows = await services.repositories.list();
    const base = await artifactoryBase(request);
    const repoKeyTypes = rows
      .filter((repo) => access.can('read', repo.key, '', 'folder'))
      .map((repo) => {
        const target = repo.rclass === 'virtual' ? repo.defaultDeploymentRepo : repo.key;
        return {
          repoKey: repo.key,
          repoType: repo.packageType,
          canRead: true,
          canDeploy:
            repo.rclass !== 'remote' &&
            Boolean(target) &&
            access.can('deploy', target!, '', 'folder'),
          isLocal: repo.rclass === 'local',
          isRemote: repo.rclass === 'remote',
          isVirtual: repo.rclass === 'virtual',
          isDefaultDeploymentConfigured:
            repo.rclass === 'virtual' && Boolean(repo.defaultDeploymentRepo),
        };
      });
    return {
      serverId: 'depot',
      hostname: request.hostname,
      baseUrl: base,
      npmBaseUrl: `${base}/api/npm`,
      skipDockerDns: false,
      hasCloudProviderSupportingRedirection: false,
      customUrlBase: '',
      repoKeyTypes,
    };
  });

  app.post<{ Body: MavenChoice }>('/ui/mavenSettings', reader, async (request) => {
    const choice = request.body ?? ({} as MavenChoice);
    const keys = [choice.release, choice.snapshot, choice.pluginRelease, choice.pluginSnapshot];
    if (keys.some((key) => typeof key !== 'string' || !key))
      throw new BadRequest('Choose the release, snapshot and plugin repositories');
    await readableKeys(request, [
      ...keys,
      ...(choice.useMirror && choice.mirror ? [choice.mirror] : []),
    ]);
    return { settings: mavenSettingsXml(await artifactoryBase(request), choice) };
  });

  app.get<{ Querystring: { repoKey?: string; snapshotRepoKey?: string } }>(
    '/ui/mavenDistributionManagement',
    reader,
    async (request) => {
      const { repoKey, snapshotRepoKey = repoKey } = request.query;
      if (!repoKey) throw new BadRequest('repoKey is required');
      await readableKeys(request, [repoKey, snapshotRepoKey!]);
      return {
        distributionManagement: distributionManagementXml(
          await artifactoryBase(request),
          repoKey,
          snapshotRepoKey!,
        ),
      };
    },
  );

  app.post<{ Body: GradleChoice }>('/ui/gradleSettings', reader, async (request) => {
    const choice = request.body ?? ({} as GradleChoice);
    const keys = [choice.pluginResolver, choice.libsResolver, choice.libsPublisher];
    if (keys.some((key) => typeof key !== 'string' || !key))
      throw new BadRequest('Choose the plugin, libraries and publishing repositories');
    await readableKeys(request, keys);
    return gradleSettings(await artifactoryBase(request), choice);
  });

  app.post<{ Body: IvyChoice }>('/ui/ivySettings', reader, async (request) => {
    const choice = request.body ?? ({} as IvyChoice);
    if (typeof choice.libsRepository !== 'string' || !choice.libsRepository)
      throw new BadRequest('Choose the libraries repository');
    await readableKeys(request, [choice.libsRepository]);
    return {
      ivySettings: ivySettingsXml(await artifactoryBase(request), request.hostname, choice),
    };
  });

  // The unlock: the password again, under the sign-in throttle, for the user's API key.
  app.post<{ Body: { password?: unknown } }>(
    '/ui/setMeUp/unlock',
    { config: { permission: 'user' as const } },
    async (request) => {
      const { principal } = request;
      if (principal.userId === undefined) throw new Forbidden();
      await confirmOwnPassword(app, services, request, request.body?.password);
      const apiKey = await services.apiKeys.get(principal.userId);
      return { userName: principal.name, ...(apiKey ? { apiKey } : {}) };
    },
  );
}
