import type { FormatRouteOptions } from '../format.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { BadRequest, Forbidden, NotFound } from '../../errors.ts';
import { WEB_LOGIN_MESSAGES } from './web-login.ts';
import type { Principal } from '../../http/permissions.ts';
import type { Services } from '../../services.ts';
import { createDownloadHandler } from '../../modules/artifacts/download-handler.ts';
import { NPM_MESSAGES as M } from './messages.ts';
import { parseNpmPath, tarballPathOf } from './names.ts';
import { withTarballBase, type Manifest } from './packument.ts';
import { documentText, renderedEtag } from './documents.ts';
import { ADVISORIES_PATH } from './service.ts';
import { LEGACY_AUDIT_PATHS } from './audit-body.ts';
import { registerAuthLineRoutes } from './auth-lines.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { ownAddress } from '../../modules/general-config/own-address.ts';

type NpmRequest = FastifyRequest<{ Params: { repoKey: string; '*'?: string } }>;

// Registered under /artifactory/api/npm (the format's own path, server/formats/format.ts).
const PREFIX = '/:repoKey';
const ABBREVIATED = 'application/vnd.npm.install-v1+json';
// A publish carries its tarball base64-encoded in the JSON document.
const PUBLISH_BODY_LIMIT = 256 * 1024 * 1024;
/** An audit lists every package of a project with its versions: a few MB at the most. */
const AUDIT_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The raw, still-encoded path after `/artifactory/api/npm/{repoKey}/`: names arrive escaped
 * (`@scope%2fname`), so the router's decoded parameters would lose what npm meant.
 */
function restOf(request: FastifyRequest): string {
  const afterPrefix = request.url.split('?')[0]!.slice('/artifactory/api/npm/'.length);
  const slash = afterPrefix.indexOf('/');
  return slash < 0 ? '' : afterPrefix.slice(slash + 1);
}

const caller = (request: FastifyRequest) => ({ principal: request.principal, log: request.log });

/**
 * npm's registry protocol at `/artifactory/api/npm/{repoKey}/` (docs/npm.md): what the npm
 * CLI calls for install, publish, view, dist-tag, deprecate, unpublish, login, whoami and
 * search. Permissions are checked per package path by the npm service, as for any artifact.
 */
export async function npmRoutes(
  app: FastifyInstance,
  { services, filestore, config }: FormatRouteOptions,
) {
  const metadataMaxAgeSeconds = config.npmMetadataMaxAgeSeconds;
  const { npm } = services;
  /** The URL tarballs are served from, through the repository the client asked. */
  const tarballBase = async (request: FastifyRequest, repoKey: string) =>
    `${await ownAddress(request, services.generalConfig)}/artifactory/api/npm/${repoKey}`;
  // npm's own cache reuses a document this long without asking (docs/npm.md, "Caching"): a
  // warm install asks nothing; a version published meanwhile makes npm ask again at once.
  // Private: a shared cache must not keep what a signed-in user was answered.
  const cacheControl =
    metadataMaxAgeSeconds > 0 ? `private, max-age=${metadataMaxAgeSeconds}` : 'no-cache';
  const download = createDownloadHandler({ services, filestore });
  const reader = { config: { permission: 'reader' as const } };
  // A document without some versions unpublishes their tarballs; deleting a package takes its
  // whole folder: each file is walked (docs/access-control.md).
  const walking = { config: { permission: 'reader' as const, reach: 'many' as const } };
  const publishing = { ...walking, bodyLimit: PUBLISH_BODY_LIMIT };

  async function sendDocument(request: NpmRequest, reply: FastifyReply, name: string) {
    const repoKey = request.params.repoKey;
    const document = await npm.packument(repoKey, name, caller(request));
    const abbreviated =
      String(request.headers.accept ?? '').includes(ABBREVIATED) && Boolean(document.abbreviated);
    if ((request.query as { write?: string }).write === 'true') {
      // npm star, unstar and unpublish ask for the document to write back: with its stars.
      const base = await tarballBase(request, (await npm.npmRepository(repoKey)).key);
      const parsed = JSON.parse((await npm.bytesOf(document, false, base)).toString()) as Manifest;
      parsed.users = await services.npmPeople.starrers(repoKey, name);
      return reply.header('Cache-Control', 'no-cache').type('application/json').send(parsed);
    }
    const base = await tarballBase(request, (await npm.npmRepository(repoKey)).key);
    const etag = renderedEtag(document.etag, base, abbreviated);
    reply.header('ETag', etag).header('Vary', 'Accept').header('Cache-Control', cacheControl);
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply
      .type(abbreviated ? ABBREVIATED : 'application/json')
      .send(await npm.bytesOf(document, abbreviated, base));
  }

  /** `name/1.0.0` or `name/latest`: one version's document. */
  async function sendVersion(request: NpmRequest, reply: FastifyReply, name: string, ref: string) {
    const repoKey = request.params.repoKey;
    const document = await npm.packument(repoKey, name, caller(request));
    const parsed = JSON.parse(documentText(document.full)) as Manifest;
    const tags = (parsed['dist-tags'] ?? {}) as Record<string, string>;
    const version = tags[ref] ?? ref;
    const manifest = (parsed.versions as Record<string, Manifest>)[version];
    if (!manifest) throw new NotFound(M.versionNotFound(name, ref));
    const base = await tarballBase(request, (await npm.npmRepository(repoKey)).key);
    return reply.type('application/json').send(withTarballBase(JSON.stringify(manifest), base));
  }

  app.get(`${PREFIX}/*`, reader, async (request: NpmRequest, reply) => {
    const { name, rest } = parseNpmPath(restOf(request));
    if (rest.length === 0) return sendDocument(request, reply, name);
    if (rest[0] === '-' && rest.length >= 2) {
      const file = rest.at(-1)!;
      // A remote member whose upstream keeps tarballs elsewhere fetches it from there first.
      await npm.fetchLinkedTarball(request.params.repoKey, name, file, caller(request));
      return download(request, reply, request.params.repoKey, tarballPathOf(name, file));
    }
    if (rest.length === 1) return sendVersion(request, reply, name, rest[0]!);
    throw new NotFound(`The path ${request.url.split('?')[0]} could not be found.`);
  });

  // Publish (with the tarball attached); deprecate and unpublish-one-version (without).
  app.put(`${PREFIX}/*`, publishing, async (request: NpmRequest, reply) => {
    const { name, rest } = parseNpmPath(restOf(request));
    if (rest.length !== 0 && rest[0] !== '-rev') throw new BadRequest('Unknown npm request');
    if (services.npmPeople.isStarDocument(request.body)) {
      const { users } = request.body;
      return reply
        .status(201)
        .send(await services.npmPeople.star(request.params.repoKey, name, users, caller(request)));
    }
    const answer = await npm.publish(request.params.repoKey, name, request.body, caller(request));
    return reply.status(201).send(answer);
  });

  // `name/-rev/{rev}`: the whole package; `name/-/{file}/-rev/{rev}`: one tarball.
  app.delete(`${PREFIX}/*`, walking, async (request: NpmRequest) => {
    const { name, rest } = parseNpmPath(restOf(request));
    const repoKey = request.params.repoKey;
    if (rest[0] === '-rev') return npm.unpublishPackage(repoKey, name, caller(request));
    if (rest[0] === '-' && rest[1])
      return npm.deleteTarball(repoKey, name, rest[1], caller(request));
    throw new BadRequest('Unknown npm request');
  });

  // npm audit: the body is taken as bytes (npm gzips it), bounded, and read by the service,
  // which leaves private names out before it goes upstream.
  await app.register(async (audit) => {
    // In place of the server's JSON parser (http/json-body.ts), for these routes alone.
    audit.removeContentTypeParser('application/json');
    audit.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: AUDIT_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    const shapes = [
      [ADVISORIES_PATH, 'bulk'],
      ...LEGACY_AUDIT_PATHS.map((path) => [path, 'tree'] as const),
    ] as const;
    for (const [path, shape] of shapes) {
      audit.post(
        `${PREFIX}/${path}`,
        { ...reader, bodyLimit: AUDIT_BODY_LIMIT },
        async (request: FastifyRequest<{ Params: { repoKey: string }; Body: Buffer }>) => {
          const encoding = request.headers['content-encoding'];
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          return npm.advisories(
            request.params.repoKey,
            { path, shape, body, encoding: typeof encoding === 'string' ? encoding : undefined },
            caller(request),
          );
        },
      );
    }
  });

  registerDistTagRoutes(app, services);
  registerAuthLineRoutes(app, services);
  registerAccountRoutes(app, services);
  registerUserRoutes(app, services);

  app.get(
    `${PREFIX}/-/v1/search`,
    reader,
    async (request: FastifyRequest<{ Params: { repoKey: string }; Querystring: SearchQuery }>) => {
      const { text = '', size = '20', from = '0' } = request.query;
      const page = {
        size: Math.min(Math.max(Number(size) || 20, 1), 250),
        from: Math.max(Number(from) || 0, 0),
      };
      return npm.search(request.params.repoKey, text, page, caller(request));
    },
  );

  app.get(`${PREFIX}/-/ping`, reader, async () => ({}));
}

interface SearchQuery {
  text?: string;
  size?: string;
  from?: string;
}

/** `npm dist-tag ls|add|rm`: `/-/package/{name}/dist-tags[/{tag}]`. */
function registerDistTagRoutes(app: FastifyInstance, services: Services) {
  const { npm } = services;
  const reader = { config: { permission: 'reader' as const } };
  const people = services.npmPeople;
  const parse = (request: NpmRequest, access = false) => {
    const { name, rest } = parseNpmPath(restOf(request).slice('-/package/'.length));
    const accessCall = ['collaborators', 'visibility', 'access'].includes(rest[0] ?? '');
    if (rest[0] !== 'dist-tags' && !(access && accessCall))
      throw new NotFound(`Unknown package call '${rest.join('/')}'`);
    return { name, tag: rest[1], call: rest[0] };
  };
  app.get(`${PREFIX}/-/package/*`, reader, async (request: NpmRequest) => {
    const { name, call } = parse(request, true);
    const { repoKey } = request.params;
    // npm access list collaborators / get status: answered from Depot's permissions.
    if (call === 'collaborators') return people.collaborators(repoKey, name, caller(request));
    if (call === 'visibility' || call === 'access')
      return people.visibility(repoKey, name, caller(request));
    return npm.distTags(repoKey, name, caller(request));
  });
  // npm access set, grant, revoke: permissions are Depot's to set.
  app.post(`${PREFIX}/-/package/*`, reader, async (request: NpmRequest) => {
    parse(request, true);
    return people.refuseChange();
  });
  app.put(`${PREFIX}/-/package/*`, reader, async (request: NpmRequest, reply) => {
    if (parse(request, true).call !== 'dist-tags') return people.refuseChange();
    const { name, tag } = parse(request);
    if (!tag) throw new BadRequest('The dist-tag to set is missing from the path');
    await npm.setDistTag(request.params.repoKey, name, tag, request.body, caller(request));
    return reply.status(201).send({ ok: true });
  });
  app.delete(`${PREFIX}/-/package/*`, reader, async (request: NpmRequest) => {
    const { name, tag } = parse(request);
    if (!tag) throw new BadRequest('The dist-tag to remove is missing from the path');
    return npm.removeDistTag(request.params.repoKey, name, tag, caller(request));
  });
}

/**
 * `npm login`: the web login (npm's default; the user approves in the console) and the
 * legacy one (name and password for a token); `npm logout`, `npm whoami`.
 */
function registerUserRoutes(app: FastifyInstance, services: Services) {
  const logins = services.npmWebLogins;
  app.post(
    `${PREFIX}/-/v1/login`,
    { config: { permission: 'public' as const } },
    async (request: FastifyRequest<{ Params: { repoKey: string } }>) => {
      // The repository is not looked up: who is not signed in learns nothing of which exist
      // (the token is the user's, whatever repository npm asked it of).
      const repoKey = request.params.repoKey;
      const { loginId, doneId } = logins.start(repoKey);
      const own = await ownAddress(request, services.generalConfig);
      return {
        loginUrl: `${own}/ui/npm-login/${loginId}`,
        doneUrl: `${own}/artifactory/api/npm/${repoKey}/-/v1/done/${doneId}`,
      };
    },
  );
  app.get(
    `${PREFIX}/-/v1/done/:doneId`,
    { config: { permission: 'public' as const } },
    async (request: FastifyRequest<{ Params: { repoKey: string; doneId: string } }>, reply) => {
      const answer = logins.poll(request.params.doneId);
      if (!answer) throw new NotFound(WEB_LOGIN_MESSAGES.unknown);
      if (answer.state === 'denied') throw new Forbidden(WEB_LOGIN_MESSAGES.denied);
      if (answer.token) return { token: answer.token };
      return reply.status(202).header('Retry-After', '1').send({});
    },
  );

  app.put(
    `${PREFIX}/-/user/:couchUser`,
    { config: { permission: 'public' as const } },
    async (request: FastifyRequest<{ Params: { repoKey: string; couchUser: string } }>, reply) => {
      const body = (request.body ?? {}) as { name?: unknown; password?: unknown };
      if (typeof body.name !== 'string' || typeof body.password !== 'string')
        throw new BadRequest(M.loginNeedsPassword);
      const { name, password } = body as { name: string; password: string };
      const user = await app.signInThrottled(request.ip, name, () =>
        services.auth.authenticateBasic(name, password, request.ip),
      );
      const principal: Principal = {
        userId: user.id,
        name: user.name,
        admin: user.admin,
        anonymous: false,
        via: 'basic',
      };
      const token = await services.tokens.create(principal, { description: 'npm login' });
      request.log.info({ user: user.name }, 'npm: signed in, token issued');
      return reply
        .status(201)
        .send({ ok: true, id: `org.couchdb.user:${user.name}`, token: token.access_token });
    },
  );

  // npm logout sends the token it holds; only a token of the caller's own is revoked.
  app.delete(
    `${PREFIX}/-/user/token/:token`,
    { config: { permission: 'user' as const } },
    async (request: FastifyRequest<{ Params: { repoKey: string; token: string } }>) => {
      let id: string | undefined;
      try {
        id = decodeJwt(request.params.token).jti;
      } catch {
        throw new BadRequest('The token to revoke is not an access token');
      }
      if (!id) throw new BadRequest('The token to revoke is not an access token');
      await services.tokens.revoke({ ...request.principal, admin: false }, id);
      return { ok: true };
    },
  );

  app.get(`${PREFIX}/-/whoami`, { config: { permission: 'user' as const } }, async (request) => ({
    username: request.principal.name,
  }));
}
