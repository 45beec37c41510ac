import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { transfer, type TransferKind } from './copy-move.ts';
import { parseArtifactPath } from './paths.ts';

type TransferHttpRequest = FastifyRequest<{
  Params: { repoKey: string; '*'?: string };
  Querystring: { to?: string; dry?: string };
}>;

/** `to=/repo/path` → the repository key and the path inside it (trailing '/' kept). */
function parseTarget(to: string | undefined) {
  if (!to) throw new BadRequest('Give the target: ?to=/{repoKey}/{path}');
  const [repo, ...rest] = to.replace(/^\//, '').split('/');
  if (!repo) throw new BadRequest('The target names no repository');
  const raw = rest.join('/');
  const { path } = parseArtifactPath(raw);
  return { repo, path: raw.endsWith('/') && path ? `${path}/` : path };
}

/** Artifactory's copy and move calls: POST /artifactory/api/{copy|move}/{repo}/{path}?to=&dry=. */
export async function copyMoveRoutes(app: FastifyInstance, { services }: { services: Services }) {
  for (const kind of ['copy', 'move'] as TransferKind[]) {
    const handler = async (request: TransferHttpRequest) => {
      const { path } = parseArtifactPath(request.params['*'] ?? '');
      const target = parseTarget(request.query.to);
      const result = await transfer(services.db, services.artifacts, {
        kind,
        fromRepo: request.params.repoKey,
        fromPath: path,
        toRepo: target.repo,
        toPath: target.path,
        dryRun: request.query.dry === '1' || request.query.dry === 'true',
        walker: await services.access.walker(request.principal),
      });
      return { messages: [{ level: 'INFO', message: result.message }] };
    };
    // Read (and for a move Delete) on each source item, Deploy where it lands: transfer() walks.
    for (const url of [
      `/artifactory/api/${kind}/:repoKey`,
      `/artifactory/api/${kind}/:repoKey/*`,
    ]) {
      app.post(url, { config: { permission: 'reader', reach: 'many' } }, handler);
    }
  }
}
