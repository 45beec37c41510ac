import type { AccessService } from '../access-control/service.ts';
import type { FastifyInstance } from 'fastify';
import { parseArtifactPath } from '../artifacts/paths.ts';
import type { ArchiveView } from './service.ts';

interface ViewSourceBody {
  repoKey: string;
  archivePath: string;
  sourcePath?: string;
}

/**
 * POST /ui/api/v1/ui/archiveViewSource (spec 02 §7): without `sourcePath`, the archive's
 * entries; with it, that entry's text. Readers may ask.
 */
export async function archiveViewRoutes(
  app: FastifyInstance,
  { archiveView, access }: { archiveView: ArchiveView; access: AccessService },
) {
  app.post<{ Body: ViewSourceBody }>(
    '/ui/archiveViewSource',
    {
      config: { permission: 'reader' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['repoKey', 'archivePath'],
          properties: {
            repoKey: { type: 'string', minLength: 1, maxLength: 1024 },
            archivePath: { type: 'string', minLength: 1, maxLength: 10000 },
            // An entry's name inside the archive, matched as written: not an artifact path.
            sourcePath: { type: 'string', minLength: 1, maxLength: 10000 },
          },
        },
      },
    },
    async (request) => {
      const { repoKey, sourcePath } = request.body;
      const archivePath = parseArtifactPath(request.body.archivePath).path;
      await access.require(request.principal, 'read', repoKey, archivePath);
      if (sourcePath === undefined) return archiveView.entries(repoKey, archivePath);
      return archiveView.source(repoKey, archivePath, sourcePath);
    },
  );
}
