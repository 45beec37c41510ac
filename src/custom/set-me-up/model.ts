import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { errorMessage } from '../../api/errorMessage';
import {
  dockerRegistryHosts,
  type ReverseProxyData,
} from '../../../server/modules/reverse-proxy/docker-hosts.ts';
import type { DockerAccessMethod } from '../../../server/modules/reverse-proxy/settings.ts';
import { setMeUpRequested } from '../../shell/layout/quickActions';
import { setMeUpApi, type SetMeUpData } from './api';
import { SET_ME_UP_MESSAGES, TOOLS, type ToolId } from './messages';
import type { Credentials } from './snippets';

export const setMeUpOpened = createEvent();
export const setMeUpClosed = createEvent();
export const toolChosen = createEvent<ToolId>();
export const repoChosen = createEvent<string>();
export const unlockSubmitted = createEvent<string>();
export const createApiKeyClicked = createEvent();
export const dockerMethodChosen = createEvent<DockerAccessMethod>();

// when the quick actions menu asks for Set Me Up, open it
sample({ clock: setMeUpRequested, target: setMeUpOpened });

export const dataFx = createEffect(setMeUpApi.data);
export const reverseProxyFx = createEffect(setMeUpApi.reverseProxy);
export const serverSettingsFx = createEffect(
  async ({ tool, repoKey }: { tool: ToolId; repoKey: string }): Promise<Record<string, string>> => {
    if (tool === 'maven') {
      const [{ settings }, { distributionManagement }] = await Promise.all([
        setMeUpApi.mavenSettings(repoKey),
        setMeUpApi.distributionManagement(repoKey),
      ]);
      return { settings, distributionManagement };
    }
    if (tool === 'gradle') return setMeUpApi.gradleSettings(repoKey);
    if (tool === 'ivy') return setMeUpApi.ivySettings(repoKey);
    return {};
  },
);
export const unlockFx = createEffect(setMeUpApi.unlock);
export const createApiKeyFx = createEffect(setMeUpApi.createApiKey);

export const $open = createStore(false)
  .on(setMeUpOpened, () => true)
  .on(setMeUpClosed, () => false);
export const $data = createStore<SetMeUpData | null>(null).on(dataFx.doneData, (_, data) => data);
export const $tool = createStore<ToolId>('npm').on(toolChosen, (_, tool) => tool);
export const $repoKey = createStore<string>('').on(repoChosen, (_, key) => key);
export const $reverseProxy = createStore<Partial<ReverseProxyData>>({}).on(
  reverseProxyFx.doneData,
  (_, data) => data,
);
/** The access method a person picked; until then the one the admin configured. */
const $pickedDockerMethod = createStore<DockerAccessMethod | null>(null)
  .on(dockerMethodChosen, (_, method) => method)
  .reset(setMeUpClosed, repoChosen);
/** The generated settings of the chosen tool and repository; an answer for an earlier choice is dropped. */
export const $server = createStore<Record<string, string>>({}).reset(toolChosen, repoChosen);
sample({
  clock: serverSettingsFx.done,
  source: { tool: $tool, repoKey: $repoKey },
  filter: (chosen, { params }) => chosen.tool === params.tool && chosen.repoKey === params.repoKey,
  fn: (_, { result }) => result,
  target: $server,
});
export const $userName = createStore('').on(unlockFx.doneData, (_, answer) => answer.userName);
/** The unlocked credentials; the snippets keep their placeholders until then. */
export const $credentials = createStore<Credentials | null>(null)
  .on(unlockFx.doneData, (_, answer) =>
    answer.apiKey ? { userName: answer.userName, secret: answer.apiKey } : null,
  )
  .reset(setMeUpClosed);
/** The password was right but the user has no API key: offer to create one. */
export const $needsApiKey = createStore(false)
  .on(unlockFx.doneData, (_, answer) => !answer.apiKey)
  .on(createApiKeyFx.done, () => false)
  .reset(setMeUpClosed, unlockSubmitted);
export const $unlockError = createStore<string | null>(null)
  .on([unlockFx.failData, createApiKeyFx.failData], (_, error) =>
    errorMessage(error, SET_ME_UP_MESSAGES.failed),
  )
  .reset(unlockSubmitted, setMeUpClosed);

/** The repositories the chosen tool works with (generic: all of them). */
export const $repositories = combine($data, $tool, (data, tool) => {
  const types = TOOLS.find((t) => t.id === tool)!.types as readonly string[];
  return (data?.repoKeyTypes ?? []).filter((r) => types.length === 0 || types.includes(r.repoType));
});

/** The registry hosts of the chosen Docker repository, the configured method first. */
export const $dockerHosts = combine($data, $repoKey, $reverseProxy, (data, repoKey, proxy) =>
  data && repoKey ? dockerRegistryHosts(data.baseUrl, repoKey, proxy) : [],
);
/** The host the Docker snippets use: the picked method's, else the first one offered. */
export const $dockerHost = combine(
  $dockerHosts,
  $pickedDockerMethod,
  (hosts, picked) => hosts.find((h) => h.method === picked) ?? hosts[0] ?? null,
);

// When the panel opens, fetch what the user may use and how the reverse proxy reaches Docker.
sample({ clock: setMeUpOpened, target: [dataFx, reverseProxyFx] });
// When the data arrives or the tool changes, choose the tool's first repository.
sample({
  clock: [dataFx.done, toolChosen],
  source: $repositories,
  fn: (repositories) => repositories[0]?.repoKey ?? '',
  target: repoChosen,
});
// When a Maven-layout tool has a repository, fetch its generated settings.
sample({
  clock: repoChosen,
  source: $tool,
  filter: (tool, repoKey) =>
    Boolean(repoKey) && (tool === 'maven' || tool === 'gradle' || tool === 'ivy'),
  fn: (tool, repoKey) => ({ tool, repoKey }),
  target: serverSettingsFx,
});
sample({ clock: unlockSubmitted, target: unlockFx });
sample({ clock: createApiKeyClicked, target: createApiKeyFx });
// When a key is created, use it at once.
sample({
  clock: createApiKeyFx.doneData,
  source: $userName,
  fn: (userName, { apiKey }) => ({ userName, secret: apiKey }),
  target: $credentials,
});
