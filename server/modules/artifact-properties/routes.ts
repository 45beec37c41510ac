import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { parseArtifactPath } from '../artifacts/paths.ts';
import { PROPERTY_LIMITS } from '../artifacts/properties.ts';
import { PROPERTY_MESSAGES } from './messages.ts';
import type { ArtifactProperty } from './service.ts';

interface NodeQuery {
  repoKey: string;
  path: string;
  recursive: boolean;
}

const nodeQuery = {
  querystring: {
    type: 'object',
    required: ['repoKey', 'path'],
    properties: {
      repoKey: { type: 'string', minLength: 1, maxLength: 1024 },
      path: { type: 'string', maxLength: 10000 },
      recursive: { type: 'boolean', default: false },
    },
  },
} as const;

// No ';', '=' or ',' (the scripted form's separators), no space at either end.
const NAME_PATTERN = '^[^;=,\\s](?:[^;=,]*[^;=,\\s])?$';
const VALUE_PATTERN = '^[^;,]*$';

const propertyName = {
  type: 'string',
  minLength: 1,
  maxLength: PROPERTY_LIMITS.maxNameLength,
  pattern: NAME_PATTERN,
  errorMessage: {
    type: PROPERTY_MESSAGES.nameRequired,
    minLength: PROPERTY_MESSAGES.nameRequired,
    maxLength: PROPERTY_MESSAGES.nameTooLong,
    pattern: PROPERTY_MESSAGES.nameCharacters,
  },
} as const;

const propertyBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'value'],
  properties: {
    name: propertyName,
    value: {
      type: 'array',
      minItems: 1,
      maxItems: PROPERTY_LIMITS.maxValues,
      items: {
        type: 'string',
        maxLength: PROPERTY_LIMITS.maxValueLength,
        pattern: VALUE_PATTERN,
        errorMessage: {
          maxLength: PROPERTY_MESSAGES.valueTooLong,
          pattern: PROPERTY_MESSAGES.valueCharacters,
        },
      },
      errorMessage: {
        minItems: PROPERTY_MESSAGES.valueRequired,
        maxItems: PROPERTY_MESSAGES.tooManyValues,
      },
    },
  },
} as const;

const deleteBody = {
  type: 'object',
  additionalProperties: false,
  required: ['properties'],
  properties: {
    properties: {
      type: 'array',
      minItems: 1,
      maxItems: PROPERTY_LIMITS.maxNamesPerDelete,
      items: { type: 'string', minLength: 1, maxLength: PROPERTY_LIMITS.maxNameLength },
      errorMessage: {
        minItems: PROPERTY_MESSAGES.namesRequired,
        maxItems: PROPERTY_MESSAGES.tooManyNamesToDelete,
      },
    },
  },
} as const;

/** The node a call names, its path normalised like every artifact path. */
const target = (query: NodeQuery) => ({
  repoKey: query.repoKey,
  path: parseArtifactPath(query.path).path,
  recursive: query.recursive,
});

/**
 * The tree browser's Properties tab (spec 02 §2, §7): read a node's properties, set one
 * property's values, delete properties; with `recursive=true` on a folder, on everything below
 * it too. Seeing them needs Read on the node, changing them Annotate (services.access).
 */
export async function artifactPropertiesRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { artifactProperties } = services;
  /** The node, once the caller may do `action` on it: Read to see, Annotate to change. */
  const allowed = async (
    request: FastifyRequest<{ Querystring: NodeQuery }>,
    action: 'read' | 'annotate',
  ) => {
    const node = target(request.query);
    await services.access.requireOn(request.principal, action, node.repoKey, node.path);
    return node;
  };

  app.get<{ Querystring: NodeQuery }>(
    '/ui/artifactproperties',
    { config: { permission: 'reader' }, schema: nodeQuery },
    async (request) => {
      const { repoKey, path } = await allowed(request, 'read');
      return artifactProperties.list(repoKey, path);
    },
  );

  app.post<{ Querystring: NodeQuery; Body: ArtifactProperty }>(
    '/ui/artifactproperties',
    // recursive=true on a folder reaches everything below it: every node is walked.
    {
      config: { permission: 'reader', reach: 'many' },
      schema: { ...nodeQuery, body: propertyBody },
    },
    async (request) =>
      artifactProperties.set(
        await allowed(request, 'annotate'),
        request.body,
        // Annotate on everything a recursive change reaches: the walker refuses it otherwise.
        await services.access.walker(request.principal),
      ),
  );

  app.post<{ Querystring: NodeQuery; Body: { properties: string[] } }>(
    '/ui/deleteproperties',
    { config: { permission: 'reader', reach: 'many' }, schema: { ...nodeQuery, body: deleteBody } },
    async (request) =>
      artifactProperties.delete(
        await allowed(request, 'annotate'),
        request.body.properties,
        await services.access.walker(request.principal),
      ),
  );
}
