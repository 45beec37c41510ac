import type { FastifyInstance } from 'fastify';
import { BadRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { UnknownProxy } from '../proxies/service.ts';
import { fetchUpstream, UpstreamFailure } from './fetch-upstream.ts';

export const TEST_REMOTE_MESSAGES = {
  success: 'Successfully connected to server',
  failed: (reason: string) => `Connection failed: ${reason}`,
} as const;

/** The repository form's "Test" button: can this remote URL be reached, by the same rules? */
export async function remoteRoutes(app: FastifyInstance, { services }: { services: Services }) {
  app.post<{
    Body: {
      url: string;
      socketTimeoutMillis?: number;
      username?: string;
      password?: string;
      proxy?: string;
      disableProxy?: boolean;
    };
  }>(
    '/ui/admin/repositories/testremote',
    {
      config: { permission: 'admin' },
      schema: {
        body: {
          type: 'object',
          required: ['url'],
          properties: {
            url: {
              type: 'string',
              format: 'uri',
              maxLength: 2048,
              errorMessage: { format: 'Please enter a valid url' },
            },
            socketTimeoutMillis: { type: 'integer', minimum: 100, maximum: 3600000 },
            username: { type: 'string', maxLength: 256 },
            password: { type: 'string', maxLength: 4096 },
            proxy: { type: 'string', maxLength: 64 },
            disableProxy: { type: 'boolean' },
          },
        },
      },
    },
    async (request) => {
      const { remoteAllowList } = await services.securityConfig.get();
      const { username, password, proxy, disableProxy } = request.body;
      try {
        const response = await fetchUpstream(new URL(request.body.url), {
          // Through the proxy the repository would use, as its fetches go.
          proxy: disableProxy
            ? undefined
            : await services.proxies.resolve(proxy, 'remoteRepositories'),
          allowList: remoteAllowList,
          timeoutMs: request.body.socketTimeoutMillis ?? 15000,
          credentials: username ? { username, password: password ?? '' } : undefined,
        });
        response.resume();
        const status = response.statusCode ?? 0;
        // Without credentials, 401/403 still prove the server is there; with them, they fail.
        const refused = Boolean(username) && (status === 401 || status === 403);
        if (status >= 500 || refused)
          throw new BadRequest(TEST_REMOTE_MESSAGES.failed(`the server answered ${status}`), 'url');
        return { info: TEST_REMOTE_MESSAGES.success };
      } catch (error) {
        if (error instanceof UpstreamFailure || error instanceof UnknownProxy)
          throw new BadRequest(TEST_REMOTE_MESSAGES.failed(error.message), 'url');
        throw error;
      }
    },
  );
}
