import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { ACCESS_MESSAGES as M } from './messages.ts';
import type { PermissionTarget } from './permission-target.ts';

const BASE = '/artifactory/api/v2/security/permissions';
const admin = { permission: 'admin' as const };
const nameParams = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 128 } },
};
type NameParams = { Params: { name: string } };

const stringList = { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 1024 } };
const grantedActions = {
  type: 'object',
  maxProperties: 1000,
  additionalProperties: { type: 'array', maxItems: 10, items: { type: 'string' } },
};
const actions = {
  type: 'object',
  additionalProperties: false,
  properties: { users: grantedActions, groups: grantedActions },
};
const section = {
  type: 'object',
  additionalProperties: false,
  properties: {
    'include-patterns': stringList,
    'exclude-patterns': stringList,
    repositories: stringList,
    actions,
  },
};
const name = { type: 'string', maxLength: 256 };
const destinationSection = {
  type: 'object',
  additionalProperties: false,
  properties: {
    destinationRules: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          siteName: name,
          cityName: name,
          countryCodes: { type: 'array', maxItems: 300, items: { type: 'string', maxLength: 2 } },
        },
      },
    },
    actions,
  },
};
const pipelineSection = {
  type: 'object',
  additionalProperties: false,
  properties: { 'include-patterns': stringList, 'exclude-patterns': stringList, actions },
};
const xraySection = {
  type: 'object',
  additionalProperties: false,
  properties: { targets: stringList, actions },
};
/** A permission target's body, for the scripted API and the console alike. */
export const permissionTargetBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 128 },
    repo: section,
    build: section,
    releaseBundle: section,
    destination: destinationSection,
    pipelineSource: pipelineSection,
    xraySource: xraySection,
  },
};

/**
 * Artifactory's names use `+` for spaces in paths (security.api.plus.insteadof.space), so a
 * script may send either.
 */
const nameFromUrl = (name: string) => name.replace(/\+/g, ' ');

/** The body's name, when given, must be the path's. */
function targetFromRequest(request: FastifyRequest<NameParams & { Body: PermissionTarget }>) {
  const name = nameFromUrl(request.params.name);
  const body = request.body ?? {};
  if (body.name !== undefined && body.name !== name)
    throw new BadRequest(M.nameDiffers(body.name, name), 'name');
  return { ...body, name };
}

/**
 * Permission targets on the scripted API in Artifactory's v2 JSON (docs/access-control.md):
 * list, get, create (POST), create or replace (PUT), delete, and the targets of a user or a
 * group. Admins only.
 */
export async function permissionTargetRestRoutes(
  app: FastifyInstance,
  { services }: { services: Services },
) {
  const { access } = services;
  const uriOf = (request: FastifyRequest, name: string) =>
    `${request.protocol}://${request.host}${BASE}/${encodeURIComponent(name)}`;

  app.get(BASE, { config: admin }, async (request) =>
    (await access.list()).map((target) => ({
      name: target.name,
      uri: uriOf(request, target.name),
    })),
  );

  app.get<NameParams>(
    `${BASE}/:name`,
    { config: admin, schema: { params: nameParams } },
    (request) => access.get(nameFromUrl(request.params.name)),
  );

  app.post<NameParams & { Body: PermissionTarget }>(
    `${BASE}/:name`,
    { config: admin, schema: { params: nameParams, body: permissionTargetBody } },
    async (request, reply) => {
      const target = await access.create(targetFromRequest(request));
      request.log.info({ permissionTarget: target.name, by: request.principal.name }, 'created');
      return reply.status(201).send();
    },
  );

  app.put<NameParams & { Body: PermissionTarget }>(
    `${BASE}/:name`,
    { config: admin, schema: { params: nameParams, body: permissionTargetBody } },
    async (request, reply) => {
      const { created, target } = await access.put(targetFromRequest(request));
      request.log.info({ permissionTarget: target.name, by: request.principal.name }, 'saved');
      return reply.status(created ? 201 : 200).send();
    },
  );

  app.delete<NameParams>(
    `${BASE}/:name`,
    { config: admin, schema: { params: nameParams } },
    async (request, reply) => {
      const name = nameFromUrl(request.params.name);
      await access.delete(name);
      request.log.info({ permissionTarget: name, by: request.principal.name }, 'deleted');
      return reply.type('text/plain').send(M.removed(name));
    },
  );

  for (const kind of ['users', 'groups'] as const) {
    app.get<NameParams>(
      `${BASE}/${kind}/:name`,
      { config: admin, schema: { params: nameParams } },
      (request) => access.grantedTo(kind, nameFromUrl(request.params.name)),
    );
  }
}
