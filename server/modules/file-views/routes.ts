import type { Principal } from '../../http/permissions.ts';
import type { AccessService } from '../access-control/service.ts';
import type { FastifyInstance } from 'fastify';
import { parseArtifactPath } from '../artifacts/paths.ts';
import type { FileViews } from './service.ts';
import { FILE_VIEWS, type FileView } from './view-rules.ts';

interface ViewBody {
  repoKey: string;
  path: string;
  view: FileView;
}

/** POST /ui/api/v1/ui/views (spec 02 §7): a file's PomView, GeneralXml or PackageJson. Readers. */
export async function fileViewsRoutes(
  app: FastifyInstance,
  { fileViews, access }: { fileViews: FileViews; access: AccessService },
) {
  /** The node's path, once the caller may read it. */
  const readable = async (principal: Principal, repoKey: string, rawPath: string) => {
    const { path } = parseArtifactPath(rawPath);
    await access.require(principal, 'read', repoKey, path);
    return path;
  };

  app.post<{ Body: ViewBody }>(
    '/ui/views',
    {
      config: { permission: 'reader' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['repoKey', 'path', 'view'],
          properties: {
            repoKey: { type: 'string', minLength: 1, maxLength: 1024 },
            path: { type: 'string', minLength: 1, maxLength: 10000 },
            view: {
              enum: [...FILE_VIEWS],
              errorMessage: `view must be one of ${FILE_VIEWS.join(', ')}`,
            },
          },
        },
      },
    },
    async (request) =>
      fileViews.view(
        request.body.repoKey,
        await readable(request.principal, request.body.repoKey, request.body.path),
        request.body.view,
      ),
  );

  // The View action (spec 02 §4, §7 `POST /ui/artifactactions/view`): a text file's content
  // for the console's code view, shown as text, never rendered.
  app.post<{ Body: { repoKey: string; path: string } }>(
    '/ui/artifactactions/view',
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
          },
        },
      },
    },
    async (request) =>
      fileViews.text(
        request.body.repoKey,
        await readable(request.principal, request.body.repoKey, request.body.path),
      ),
  );
}
