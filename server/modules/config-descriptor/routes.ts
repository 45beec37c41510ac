import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConfigurationChange } from './apply-configuration.ts';
import type { ConfigurationService } from './service.ts';
import { CONFIG_MESSAGES as M } from './messages.ts';

const admin = { permission: 'admin' as const };
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];
const PATH = '/artifactory/api/system/configuration';

const wantsYaml = (request: FastifyRequest) =>
  YAML_TYPES.some((type) => (request.headers.accept ?? '').includes(type));

const xml = (reply: FastifyReply, text: string) =>
  reply.type('application/xml; charset=utf-8').send(text);

function outcome(changes: ConfigurationChange[], dryRun: boolean) {
  const info =
    changes.length === 0
      ? M.unchanged
      : dryRun
        ? `Dry run: ${changes.length} change(s) would be made; nothing was written`
        : `${changes.length} change(s) to the configuration applied`;
  return { info, dryRun, changes };
}

/**
 * Configuration as code on Artifactory's REST paths (docs/config-as-code.md): the whole
 * configuration as XML, or YAML when asked, and a YAML patch applied all or nothing.
 */
export async function configurationRestRoutes(
  app: FastifyInstance,
  { configuration }: { configuration: ConfigurationService },
) {
  app.addContentTypeParser(YAML_TYPES, { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.get(PATH, { config: admin }, async (request, reply) =>
    wantsYaml(request)
      ? reply.type('application/yaml; charset=utf-8').send(await configuration.asYaml())
      : xml(reply, await configuration.asXml()),
  );

  app.patch<{ Querystring: { dryRun?: boolean }; Body: string }>(
    PATH,
    {
      config: admin,
      schema: {
        querystring: { type: 'object', properties: { dryRun: { type: 'boolean' } } },
        body: { type: 'string', maxLength: 1024 * 1024 },
      },
    },
    async (request) => {
      const dryRun = request.query.dryRun === true;
      const actor = request.principal.name;
      return outcome(await configuration.applyYamlPatch(request.body, { actor, dryRun }), dryRun);
    },
  );
}

/** The console's Config Descriptor and Security Descriptor calls (spec 03, "Backups, descriptors, keys"). */
export async function configDescriptorConsoleRoutes(
  app: FastifyInstance,
  { configuration }: { configuration: ConfigurationService },
) {
  app.get('/ui/configdescriptor', { config: admin }, async (_request, reply) =>
    xml(reply, await configuration.asXml()),
  );

  app.put<{ Body: { configXml: string } }>(
    '/ui/configdescriptor',
    {
      config: admin,
      schema: {
        body: {
          type: 'object',
          required: ['configXml'],
          additionalProperties: false,
          properties: { configXml: { type: 'string', minLength: 1, maxLength: 1024 * 1024 } },
        },
      },
    },
    async (request) => {
      const actor = request.principal.name;
      const changes = await configuration.applyXml(request.body.configXml, { actor });
      return { info: changes.length === 0 ? M.unchanged : M.saved, changes };
    },
  );

  app.get('/ui/securitydescriptor', { config: admin }, async (_request, reply) =>
    xml(reply, await configuration.securityXml()),
  );
}
