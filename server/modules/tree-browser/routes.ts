import type { FastifyInstance } from 'fastify';
import { BadRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { parseArtifactPath } from '../artifacts/paths.ts';
import { TREE_LIMITS } from './service.ts';

const text = { type: 'string', maxLength: 1024 } as const;
const names = { type: 'array', items: text, maxItems: 1000 } as const;

interface TreeBody {
  type: 'root' | 'junction';
  // root
  projectKey?: string;
  mustInclude?: string;
  packageTypes?: string[];
  repositoryTypes?: string[];
  repositoryKeys?: string[];
  sortBy?: 'repoType' | 'repoKey';
  byRepoKey?: boolean;
  continueState?: string;
  // junction (a repository's or folder's children)
  repoType?: string;
  repoKey?: string;
  path?: string;
  text?: string;
  trashcan?: boolean;
  limit?: number;
}

interface TabsAndActionsBody {
  type: 'repository' | 'folder' | 'file';
  repoKey: string;
  path: string;
}

/**
 * POST /ui/api/v1/ui/treebrowser (spec 02 §7): `type: 'root'` answers the repositories at
 * the tree's root, `type: 'junction'` a repository's or folder's children; both a page at
 * a time, with a `continueState` while more follow. `?compacted=true` merges chains of
 * single folders into one row. Readers may browse; what each may see narrows with
 * permission targets (issue 5).
 */
export async function treeBrowserRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  app.post<{ Body: TreeBody; Querystring: { compacted?: boolean } }>(
    '/ui/treebrowser',
    {
      config: { permission: 'reader' },
      schema: {
        querystring: {
          type: 'object',
          properties: { compacted: { type: 'boolean', default: false } },
        },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['type'],
          properties: {
            type: { enum: ['root', 'junction'] },
            projectKey: text,
            mustInclude: text,
            packageTypes: names,
            repositoryTypes: names,
            repositoryKeys: names,
            sortBy: { enum: ['repoType', 'repoKey'] },
            byRepoKey: { type: 'boolean' },
            continueState: text,
            repoType: text,
            repoKey: text,
            path: { type: 'string', maxLength: 10000 },
            text,
            trashcan: { type: 'boolean' },
            limit: { type: 'integer', minimum: 1, maximum: TREE_LIMITS.maxChildrenPage },
          },
        },
      },
    },
    async (request) => {
      const body = request.body;
      const access = await services.access.forPrincipal(request.principal);
      if (body.type === 'root') return services.treeBrowser.roots(body, access);
      if (!body.repoKey) throw new BadRequest('A junction needs the repoKey of its repository');
      return services.treeBrowser.children(
        {
          repoKey: body.repoKey,
          path: parseArtifactPath(body.path ?? '').path,
          compacted: request.query.compacted === true,
          continueState: body.continueState,
          limit: body.limit,
        },
        access,
      );
    },
  );

  // The node's tabs and the actions this caller may take on it (spec 02 §3, §7). The node
  // is looked up, not taken from the body: `type` and the rest are what the console sends.
  app.post<{ Body: TabsAndActionsBody }>(
    '/ui/treebrowser/tabsAndActions',
    {
      config: { permission: 'reader' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'repoKey', 'path'],
          properties: {
            type: { enum: ['repository', 'folder', 'file'] },
            repoKey: { type: 'string', minLength: 1, maxLength: 1024 },
            path: { type: 'string', maxLength: 10000 },
            repoType: text,
            repoPkgType: text,
            repoPath: { type: 'string', maxLength: 10000 },
            text: { type: 'string', maxLength: 10000 },
            cached: { type: 'boolean' },
          },
        },
      },
    },
    async (request) =>
      services.treeBrowser.tabsAndActions(
        request.body.repoKey,
        parseArtifactPath(request.body.path).path,
        {
          access: await services.access.forPrincipal(request.principal),
          // the Effective Permissions call lists every user: admins only, as its route says
          seesPermissions: await request.holds('admin'),
          user: request.principal,
          trashOn: (await services.trash.config()).enabled,
          listedByBuilds: (repoKey, path) =>
            services.builds.listsItem(request.principal, repoKey, path),
        },
      ),
  );
}
