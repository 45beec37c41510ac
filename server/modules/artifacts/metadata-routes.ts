import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { PROPERTY_MESSAGES as M } from '../artifact-properties/messages.ts';
import { parseArtifactPath } from './paths.ts';
import { FORBIDDEN_IN_PROPERTY, PROPERTY_LIMITS, type Properties } from './properties.ts';
import { deleteCheckedProperties, setCheckedProperties } from './property-changes.ts';
import { checkPropertyBatch, checkPropertyNamesToDelete } from './property-limits.ts';

type MetadataRequest = FastifyRequest<{
  Params: { repoKey: string; '*'?: string };
  Querystring: { recursiveProperties?: string; atomicProperties?: string };
  Body: { props?: unknown };
}>;

const metadataBody = {
  type: 'object',
  required: ['props'],
  properties: { props: { type: 'object' } },
} as const;

const hasAny = (text: string, chars: readonly string[]) => chars.some((c) => text.includes(c));

function checkName(name: string) {
  if (name.trim() === '') throw new BadRequest(M.nameRequired);
  if (name.length > PROPERTY_LIMITS.maxNameLength) throw new BadRequest(M.nameTooLong);
  if (hasAny(name, FORBIDDEN_IN_PROPERTY.name) || name.trim() !== name)
    throw new BadRequest(M.nameCharacters);
}

/** A value as sent: a string (its commas separate values, as everywhere in the API) or a list. */
function valuesOf(name: string, value: unknown): string[] {
  const values =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? (value as string[])
        : undefined;
  if (!values) throw new BadRequest(M.patchValue(name));
  if (values.some((v) => hasAny(v, FORBIDDEN_IN_PROPERTY.value)))
    throw new BadRequest(M.valueCharacters);
  return values;
}

/** `{"props": {"a": "1", "b": ["2", "3"], "gone": null}}` → what to set and what to delete. */
function parseProps(props: unknown): { set: Properties; remove: string[] } {
  if (!props || typeof props !== 'object' || Array.isArray(props))
    throw new BadRequest(M.patchBody);
  const set: Properties = {};
  const remove: string[] = [];
  for (const [name, value] of Object.entries(props)) {
    checkName(name);
    if (value === null) remove.push(name);
    else set[name] = valuesOf(name, value);
  }
  checkPropertyBatch(set);
  checkPropertyNamesToDelete(remove);
  return { set, remove };
}

/**
 * `PATCH /artifactory/api/metadata/{repoKey}/{path}` (Artifactory's "Update Item Properties"):
 * sets the properties given a value and deletes those given `null`, on the item and, for a
 * folder, everything below it unless `recursiveProperties=0`. Annotate on all it reaches,
 * checked before anything is written; local repositories and remote caches only.
 */
export function registerMetadataRoutes(app: FastifyInstance, services: Services) {
  const { artifacts, db } = services;
  app.patch(
    '/artifactory/api/metadata/:repoKey/*',
    { config: { permission: 'reader', reach: 'many' }, schema: { body: metadataBody } },
    async (request: MetadataRequest, reply) => {
      const { set, remove } = parseProps(request.body.props);
      const repo = await artifacts.repository(request.params.repoKey);
      if (repo.rclass === 'virtual') throw new BadRequest(M.virtual(repo.key));
      const { path } = parseArtifactPath(request.params['*'] ?? '');
      const node = path === '' ? undefined : await artifacts.findNode(repo.id, path);
      const kind = !node || node.folder ? 'folder' : 'file';
      await services.access.require(request.principal, 'annotate', repo.key, path, kind);
      if (path !== '' && !node) throw new NotFound(`Unable to find item '${repo.key}/${path}'`);
      const recursive = kind === 'folder' && request.query.recursiveProperties !== '0';
      const scope = { repositoryId: repo.id, repoKey: repo.key, path, recursive };
      const walker = await services.access.walker(request.principal);
      if (Object.keys(set).length > 0) await setCheckedProperties(db, scope, set, walker);
      if (remove.length > 0) await deleteCheckedProperties(db, scope, remove, walker);
      request.log.info(
        { repository: repo.key, path, set: Object.keys(set), removed: remove },
        'properties updated',
      );
      return reply.status(204).send();
    },
  );
}
