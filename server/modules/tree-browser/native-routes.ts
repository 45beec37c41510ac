import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.ts';
import { parseArtifactPath } from '../artifacts/paths.ts';
import { TREE_LIMITS } from './service.ts';

interface NativeQuery {
  continueState?: string;
  limit?: number;
}

/** One row of the native browser: a folder to open or a file to download. */
export interface NativeEntry {
  name: string;
  folder: boolean;
  size?: number;
  lastModified?: string;
  downloadPath?: string;
}

/**
 * GET /ui/api/v1/ui/nativeBrowser/{repoKey}/{path} (spec 02 §7 `/ui/nativeBrowser`): a plain
 * listing of a repository's or folder's children, the tree's children call without
 * compaction: the caller's readable children only, a page at a time (`continueState`).
 */
export async function nativeBrowserRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  // A repository's root answers with and without the trailing '/'.
  for (const url of ['/ui/nativeBrowser/:repoKey', '/ui/nativeBrowser/:repoKey/*'])
    app.get<{ Params: { repoKey: string; '*'?: string }; Querystring: NativeQuery }>(
      url,
      {
        config: { permission: 'reader' },
        schema: {
          querystring: {
            type: 'object',
            additionalProperties: false,
            properties: {
              continueState: { type: 'string', maxLength: 1024 },
              limit: { type: 'integer', minimum: 1, maximum: TREE_LIMITS.maxChildrenPage },
            },
          },
        },
      },
      async (request) => {
        const { repoKey } = request.params;
        const path = parseArtifactPath(request.params['*'] ?? '').path;
        const access = await services.access.forPrincipal(request.principal);
        const page = await services.treeBrowser.children(
          { repoKey, path, compacted: false, ...request.query },
          access,
        );
        const children: NativeEntry[] = page.data.map((node) => ({
          name: node.text,
          folder: node.type !== 'file',
          ...(node.type === 'file'
            ? { size: node.size, lastModified: node.lastModified, downloadPath: node.downloadPath }
            : {}),
        }));
        return { repoKey, path, children, continueState: page.continueState };
      },
    );
}
