import type { ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { BadRequest } from '../../errors.ts';
import { describeValidation } from '../../http/error-handler.ts';
import { createBodyAjv } from '../../schemas/ajv.ts';
import { createBodySchema } from '../../schemas/registry.ts';
import type { Services } from '../../services.ts';
import type { RepositoryConfig } from '../repositories/service.ts';
import { ONBOARDING_MESSAGES as M } from './messages.ts';
import { createOnboardingService, type QuickSetupOptions } from './service.ts';
import type { QuickSetupChoice } from './quick-setup-plan.ts';
import { personalizationBody, type PersonalizationBody } from './personalization.ts';

const admin = { permission: 'admin' } as const;

const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['prefix', 'packageTypes'],
  properties: {
    prefix: { type: 'string', maxLength: 48 },
    packageTypes: {
      type: 'array',
      maxItems: 32,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['packageType'],
        properties: {
          packageType: { type: 'string', maxLength: 32 },
          upstreamUrl: { type: 'string', maxLength: 2048 },
        },
      },
    },
  },
};

/**
 * First-run onboarding (spec 03 "Onboarding", docs/onboarding.md), under /ui/api/v1, for
 * admins: the quick setup's state (`/system/onboarding`), the package types it offers
 * (`/ui/onboarding/reposStates`) and the one call that creates their repositories.
 */
export async function onboardingRoutes(
  app: FastifyInstance,
  { services, options }: { services: Services; options: QuickSetupOptions },
) {
  const onboarding = createOnboardingService(
    services.db,
    services.catalogue,
    services.repositories,
    options,
  );
  // Compiled at the first creation: listing the routes (schemas:check) never needs it.
  let validateNew: ValidateFunction | undefined;
  const checkAgainstEntity = (config: RepositoryConfig) => {
    validateNew ??= createBodyAjv().compile(
      createBodySchema(services.schemas.entities.get('repository')!),
    );
    const { key } = config;
    if (validateNew(config)) return;
    const { message, field } = describeValidation(validateNew.errors as never);
    // The prefix makes every key: a fault but the upstream's is the prefix's.
    throw new BadRequest(`${key}: ${message}`, field === 'url' ? 'upstreamUrl' : 'prefix');
  };

  app.get('/system/onboarding', { config: admin }, async () => onboarding.view());

  app.put<{ Body: { quickSetup: 'skipped' } }>(
    '/system/onboarding',
    {
      config: admin,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['quickSetup'],
          properties: { quickSetup: { type: 'string', enum: ['skipped'] } },
        },
      },
    },
    async (request) => {
      const view = await onboarding.skip(request.principal.name);
      request.log.info({ by: request.principal.name }, 'quick setup skipped');
      return view;
    },
  );

  // The personalisation wizard, per admin (docs/onboarding.md).
  app.get('/ui/onboarding', { config: admin }, async (request) =>
    onboarding.personalization(request.principal.name),
  );

  app.put<{ Body: PersonalizationBody }>(
    '/ui/onboarding',
    { config: admin, schema: { body: personalizationBody } },
    async (request) => {
      const view = await onboarding.personalize(request.principal.name, request.body);
      request.log.info(
        { by: request.principal.name, personalization: view.personalization },
        'onboarding wizard answered',
      );
      return view;
    },
  );

  app.get('/ui/onboarding/reposStates', { config: admin }, async () => ({
    repoStates: await onboarding.types(),
  }));

  app.post<{ Body: { prefix: string; packageTypes: QuickSetupChoice[] } }>(
    '/ui/onboarding/createDefaultRepos',
    { config: admin, schema: { body: createBody } },
    async (request, reply) => {
      const { prefix, packageTypes } = request.body;
      const created = await onboarding.createDefaultRepos(
        prefix,
        packageTypes,
        request.principal.name,
        checkAgainstEntity,
      );
      request.log.info(
        { repositories: created.map((repo) => repo.key), by: request.principal.name },
        'quick setup created repositories',
      );
      return reply.status(201).send({
        info: M.created,
        repositories: created.map(({ key, rclass, packageType }) => ({ key, rclass, packageType })),
      });
    },
  );
}
