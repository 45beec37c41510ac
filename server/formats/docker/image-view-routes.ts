import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { parseArtifactPath } from '../../modules/artifacts/paths.ts';
import { ownAddress } from '../../modules/general-config/own-address.ts';
import { createDockerImageView } from './image-view.ts';

interface DockerViewBody {
  repoKey: string;
  path: string;
  view?: string;
}

/**
 * POST /ui/api/v1/ui/views/dockerv2 (spec 02 §7): a tag's manifest, layers, labels and
 * platforms for the tree's DockerV2Info tab and the package browser. Readers of the node.
 */
export async function dockerImageViewRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const views = createDockerImageView(services);
  app.post<{ Body: DockerViewBody }>(
    '/ui/views/dockerv2',
    {
      config: { permission: 'reader' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['repoKey', 'path'],
          properties: {
            repoKey: { type: 'string', minLength: 1, maxLength: 1024 },
            path: { type: 'string', minLength: 1, maxLength: 10000 },
            // The spec's body names the view; this route answers only DockerV2Info.
            view: { enum: ['dockerv2', 'DockerV2Info'], errorMessage: 'view must be dockerv2' },
          },
        },
      },
    },
    async (request) => {
      const { repoKey } = request.body;
      const { path } = parseArtifactPath(request.body.path);
      await services.access.require(request.principal, 'read', repoKey, path);
      const view = await views.view(repoKey, path);
      // The image's name as Set Me Up forms it: the repository path method on Depot's own host.
      const host = new URL(await ownAddress(request, services.generalConfig)).host;
      return {
        ...view,
        pullCommand: `docker pull ${host}/${view.repoKey}/${view.image}:${view.tag}`,
      };
    },
  );
}
