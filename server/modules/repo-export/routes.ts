import type { FastifyInstance } from 'fastify';
import { REPO_EXPORT_MESSAGES as M } from './messages.ts';
import type { RepoExportService, RepositoriesExport, RepositoriesImport } from './service.ts';

// Admin only, over whole repositories: listed in tests/excluded-child.test.ts, not item-walked.
const admin = { permission: 'admin' as const };
const path = { type: 'string', minLength: 1, maxLength: 4096 };
const repoKey = { type: 'string', minLength: 1, maxLength: 64 };

const exportBody = {
  type: 'object',
  required: ['exportPath'],
  properties: {
    exportPath: path,
    repositories: { type: 'array', items: repoKey, maxItems: 1000 },
    includeMetadata: { type: 'boolean' },
    m2: { type: 'boolean' },
    excludeContent: { type: 'boolean' },
    verbose: { type: 'boolean' },
  },
  additionalProperties: false,
};

const importBody = {
  type: 'object',
  required: ['importPath'],
  properties: {
    importPath: path,
    repo: repoKey,
    includeMetadata: { type: 'boolean' },
    verbose: { type: 'boolean' },
  },
  additionalProperties: false,
};

/** Artifactory's repository export and import (docs/repository-export.md), admin only. */
export async function repositoryExportRoutes(
  app: FastifyInstance,
  { repoExport }: { repoExport: RepoExportService },
) {
  app.post<{ Body: RepositoriesExport }>(
    '/artifactory/api/export/repositories',
    { config: admin, schema: { body: exportBody } },
    async (request) => {
      const log = (item: string) => request.log.info({ item }, 'exported');
      const { path: written, repositories } = await repoExport.exportRepositories(
        request.body,
        log,
      );
      const files = repositories.reduce((sum, repo) => sum + repo.files, 0);
      return { info: M.exported(files, repositories.length), path: written, repositories };
    },
  );

  app.post<{ Body: RepositoriesImport }>(
    '/artifactory/api/import/repositories',
    { config: admin, schema: { body: importBody } },
    async (request) => {
      const log = (item: string) => request.log.info({ item }, 'imported');
      const { path: read, repositories } = await repoExport.importRepositories(
        request.body,
        request.principal.name,
        log,
      );
      const files = repositories.reduce((sum, repo) => sum + repo.files, 0);
      return { info: M.imported(files, repositories.length), path: read, repositories };
    },
  );
}
