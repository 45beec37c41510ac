import { createHash } from 'node:crypto';
import { BUCKET_REQUESTS, BUCKET_URLS } from './matrix-buckets.ts';
import { DEFAULT_MAINTENANCE } from '../../server/modules/maintenance/settings.ts';

/**
 * The requests tests/route-status-table.test.ts sends to routes that take a body or a query:
 * each well formed and naming real things, so that every column of the table shows what the
 * route decides for that caller rather than that an empty request is a bad one.
 */
export const CALLERS = ['anonymous', 'plain', 'reader', 'projectAdmin', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];

/** The passwords of the signed-in callers but the admin (test-app's). */
export const PASSWORDS: Record<Exclude<Caller, 'anonymous' | 'admin'>, [string, string]> = {
  plain: ['plain', 'plain-pass-1'],
  reader: ['reader', 'reader-pass-1'],
  projectAdmin: ['padmin', 'padmin-pass-1'],
};

export interface ShapedRequest {
  query?: string;
  /** A JSON body, or one per caller: a flow each caller runs on an account of its own. */
  body?: object | ((caller: Caller) => object);
  /** A body that is not JSON (AQL's text, a multipart upload), with its content type. */
  raw?: () => { contentType: string; payload: string | Buffer };
}

/**
 * What the table's setup makes and the requests name: filled in by its beforeAll, read
 * when a request is sent.
 */
export const MADE: {
  /** A publish of matrix-pkg 1.0.1, as npm sends it. */
  npmPublish?: object;
  /** A password-reset key mailed to `resetter`. */
  resetKey?: string;
  /** An invitation token mailed to `invitee`. */
  invitationToken?: string;
  /** A plain HTTP server on loopback (allowed as an upstream), for the remote URL test. */
  upstreamUrl?: string;
  /** An access token of the admin's, for npm's logout to revoke. */
  adminNpmToken?: string;
  /** An sdist of matrix-py 1.0, for twine's upload form. */
  sdist?: { filename: string; content: Buffer };
} = {};

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Each caller's own account for the flows that change it (change password, profile). */
export const changerOf = (caller: Caller) => `changer-${caller.toLowerCase()}`;
export const CHANGER_PASSWORD = 'changer-pass-1';

const MATRIX_ROLE = {
  name: 'matrix-role',
  type: 'CUSTOM',
  environments: ['DEV'],
  actions: ['READ_REPOSITORY'],
};

/** A multipart form as twine sends it: the fields, then the file. */
async function uploadForm(fields: Record<string, string>, file: { name: string; content: Buffer }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('content', new Blob([new Uint8Array(file.content)]), file.name);
  const encoded = new Response(form);
  return {
    contentType: encoded.headers.get('content-type')!,
    payload: Buffer.from(await encoded.arrayBuffer()),
  };
}

/** The upload form, built once the sdist exists (it is async: FormData's encoding). */
export async function prepareUpload() {
  const sdist = MADE.sdist!;
  preparedUpload = await uploadForm(
    {
      ':action': 'file_upload',
      protocol_version: '1',
      name: 'matrix-py',
      version: '1.0',
      filetype: 'sdist',
      sha256_digest: createHash('sha256').update(sdist.content).digest('hex'),
    },
    { name: sdist.filename, content: sdist.content },
  );
}
let preparedUpload: { contentType: string; payload: Buffer } | undefined;

/** Routes Fastify checks the body or query of before the handler decides who may. */
const WELL_FORMED: Record<string, ShapedRequest> = {
  'PUT /access/api/v1/projects/:key/users/:name': { body: { roles: ['Viewer'] } },
  'PUT /access/api/v1/projects/:key/groups/:name': { body: { roles: ['Viewer'] } },
  'POST /access/api/v1/projects/:key/roles': { body: MATRIX_ROLE },
  'PUT /access/api/v1/projects/:key/roles/:name': { body: MATRIX_ROLE },
  'POST /access/api/v1/projects': { body: { project_key: 'mtxnew', display_name: 'mtx new' } },
  'PUT /artifactory/api/repositories/:key': { body: { rclass: 'local', packageType: 'generic' } },
  'POST /ui/api/v1/ui/admin/repositories': {
    body: {
      type: 'local',
      general: { repoKey: 'matrix-new' },
      typeSpecific: { repoType: 'generic' },
    },
  },
  // The quick setup: a prefix of its own, with the loopback upstream.
  'POST /ui/api/v1/ui/onboarding/createDefaultRepos': {
    body: () => ({
      prefix: 'mtxq',
      packageTypes: [{ packageType: 'npm', upstreamUrl: MADE.upstreamUrl! }],
    }),
  },
  'PUT /ui/api/v1/system/onboarding': { body: { quickSetup: 'skipped' } },
  'PUT /ui/api/v1/ui/onboarding': { body: { skipped: true } },
  'PUT /ui/api/v1/ui/admin/repositories': {
    body: {
      type: 'local',
      general: { repoKey: 'matrix-local' },
      typeSpecific: { repoType: 'generic' },
    },
  },
  'PUT /artifactory/api/storage/:repoKey': { query: 'properties=matrix=1' },
  'DELETE /artifactory/api/storage/:repoKey': { query: 'properties=matrix' },
  'POST /artifactory/api/copy/:repoKey': { query: 'to=/victim-local/copied-root&dry=1' },
  'POST /artifactory/api/move/:repoKey': { query: 'to=/victim-local/moved-root&dry=1' },
  'GET /ui/api/v1/ui/artifactactions/deleteversions': { query: 'repoKey=matrix-maven&path=org' },
  'POST /ui/api/v1/ui/artifactactions/deleteversions': {
    body: {
      repoKey: 'matrix-maven',
      path: 'org',
      versions: [{ groupId: 'org.acme', version: '1.0' }],
    },
  },
  'PUT /artifactory/api/npm/:repoKey/*': { body: () => MADE.npmPublish! },
  'POST /ui/api/v1/ui/artifactactions/downloadfolder': {
    body: { repoKey: 'matrix-local', path: 'org', archiveType: 'zip' },
  },
};

/** A build listing matrix-local/org/file.txt (content `content`) as its artifact. */
export const matrixBuild = (name: string) => ({
  name,
  number: '1',
  started: '2026-05-01T10:00:00.000+0000',
  modules: [{ id: name, artifacts: [{ name: 'file.txt', sha256: sha256('content') }] }],
});

/** The build calls (docs/builds.md), on the builds the fixture uploads. */
const BUILDS: Record<string, ShapedRequest> = {
  'PUT /artifactory/api/build': { body: matrixBuild('matrix-put-build') },
  'DELETE /artifactory/api/build/:name': { query: 'buildNumbers=1' },
  'POST /artifactory/api/build/rename/:name': { query: 'to=matrix-renamed-again' },
  'POST /artifactory/api/build/promote/:name/:number': {
    body: { dryRun: true, targetRepo: 'victim-local', copy: true },
  },
  'POST /artifactory/api/build/patternArtifacts': {
    body: [{ buildName: 'matrix-build', buildNumber: '1' }],
  },
  'GET /ui/api/v1/ui/artifactbuilds': { query: 'repoKey=matrix-local&path=org%2Ffile.txt' },
  'GET /ui/api/v1/ui/artifactbuilds/json': { query: 'buildName=matrix-build&buildNumber=1' },
  'POST /ui/api/v1/ui/permissiontargets/buildPatterns': {
    body: { includePatterns: ['matrix-*/**'] },
  },
};

/** The scripted searches, each finding something in matrix-local or matrix-maven. */
const SEARCHES: Record<string, ShapedRequest> = {
  'GET /artifactory/api/search/artifact': { query: 'name=file.txt&repos=matrix-local' },
  'GET /artifactory/api/search/gavc': { query: 'g=org&repos=matrix-local' },
  'GET /artifactory/api/search/prop': { query: 'matrix=1&repos=matrix-local' },
  'GET /artifactory/api/search/checksum': {
    query: `sha256=${sha256('content')}&repos=matrix-local`,
  },
  'GET /artifactory/api/search/creation': { query: 'from=0&repos=matrix-local' },
  'GET /artifactory/api/search/dates': { query: 'from=0&dateFields=created&repos=matrix-local' },
  'GET /artifactory/api/search/usage': { query: `notUsedSince=${Date.now()}&repos=matrix-local` },
  'GET /artifactory/api/search/latestVersion': { query: 'g=org.acme&a=lib&repos=matrix-maven' },
  'POST /artifactory/api/search/aql': {
    raw: () => ({ contentType: 'text/plain', payload: 'items.find({"repo":"matrix-local"})' }),
  },
  'POST /ui/api/v1/ui/artifactsearch/quick': { body: { query: 'file.txt' } },
  'POST /ui/api/v1/ui/artifactsearch/checksum': { body: { checksum: sha256('content') } },
  'POST /ui/api/v1/ui/artifactsearch/trash': { body: { query: 'doomed.txt' } },
  'POST /ui/api/v1/ui/artifactsearch/property': {
    body: { propertyKeyValues: [{ key: 'matrix', values: ['1'] }] },
  },
  'POST /ui/api/v1/ui/artifactsearch/gavc': { body: { groupID: 'org.acme' } },
  'POST /ui/api/v1/ui/artifactsearch/class': { body: { name: 'Lib' } },
  'POST /ui/api/v1/ui/artifactsearch/remote': { body: { searchKey: 'lib' } },
  'POST /ui/api/v1/ui/artifactsearch/pkg': {
    body: [
      { id: 'pkgType', values: ['npm'] },
      { id: 'npmName', values: ['matrix-pkg'] },
    ],
  },
  'POST /ui/api/v1/ui/artifactsearch/deleteArtifact': {
    body: { artifacts: [{ repoKey: 'matrix-local', path: 'org/doomed-search.txt' }] },
  },
  'POST /ui/api/v1/mds/packages': {
    body: { graphQL: { query: '{ packages(first: 10) { edges { node { name } } } }' } },
  },
  'POST /ui/api/v1/mds/package': {
    body: { graphQL: { query: '{ package(id: "npm://matrix-pkg") { name latestVersion } }' } },
  },
  'POST /ui/api/v1/mds/versions': {
    body: {
      graphQL: {
        query: '{ versions(filter: {packageId: "npm://matrix-pkg"}) { edges { node { name } } } }',
      },
    },
  },
  'GET /ui/api/v1/ui/v1/native/versions/:type/:document': {
    query: 'name=matrix-pkg&version=1.0.0',
  },
};

/** Sign-in, passwords, MFA and invitations: public flows, each with a real account. */
const CREDENTIAL_FLOWS: Record<string, ShapedRequest> = {
  'POST /ui/api/v1/ui/auth/login': { body: { user: 'victim', password: 'victim-pass-1' } },
  'POST /ui/api/v1/ui/auth/changePassword': {
    body: (caller) => ({
      userName: changerOf(caller),
      oldPassword: CHANGER_PASSWORD,
      newPassword1: 'changer-pass-2',
      newPassword2: 'changer-pass-2',
    }),
  },
  'PUT /ui/api/v1/ui/userProfile': {
    body: (caller) =>
      caller === 'admin'
        ? { email: 'admin@example.com', password: 'admin-secret-1' }
        : caller === 'anonymous'
          ? { email: 'nobody@example.com', password: 'x' }
          : { email: `${PASSWORDS[caller][0]}@example.com`, password: PASSWORDS[caller][1] },
  },
  'POST /ui/api/v1/ui/setMeUp/unlock': {
    body: (caller) => ({
      password:
        caller === 'admin' ? 'admin-secret-1' : caller === 'anonymous' ? 'x' : PASSWORDS[caller][1],
    }),
  },
  // No MFA is enrolled and no sign-in is pending: each says so to whoever asks.
  'POST /ui/api/v1/auth/mfa/enroll': { body: { otp: '123456' } },
  'POST /ui/api/v1/auth/mfa/verify': { body: { otp: '123456' } },
  'POST /ui/api/v1/auth/mfa/remove': { body: { otp: '123456' } },
  'POST /ui/api/v1/ui/auth/forgotpassword': { body: { user: 'victim' } },
  'POST /ui/api/v1/ui/auth/resetpassword': { body: { password: 'Resetter-pass-2' } },
  'POST /ui/api/v1/access/token/verify': { body: () => ({ token: MADE.invitationToken! }) },
  'POST /ui/api/v1/access/entities/users/invited/setPassword': {
    body: () => ({ token: MADE.invitationToken!, password: 'Invitee-pass-1' }),
  },
  'PUT /artifactory/api/npm/:repoKey/-/user/:couchUser': {
    body: {
      _id: 'org.couchdb.user:victim',
      name: 'victim',
      password: 'victim-pass-1',
      type: 'user',
    },
  },
};

/** The administrators' calls that create or delete things, each on things of its own. */
const ADMINISTRATION: Record<string, ShapedRequest> = {
  'POST /ui/api/v1/ui/users': {
    body: { name: 'matrix-user', email: 'mu@example.com', password: 'Matrix-pass-1' },
  },
  'POST /ui/api/v1/ui/users/userDelete': { body: { userNames: ['doomed-ui'] } },
  'POST /ui/api/v1/ui/securityconfig/unlockUsers': { body: ['victim'] },
  'POST /ui/api/v1/access/entities/users/unlockUsers': { body: ['victim'] },
  'POST /ui/api/v1/ui/mail/test': { body: { to: 'ops@example.test' } },
  'POST /ui/api/v1/access/entities/users/invite': {
    body: { name: 'matrix-invitee', email: 'mi@example.test' },
  },
  // The user the call above invites: reinviting `invitee` would void the token the flows use.
  'POST /ui/api/v1/access/entities/users/invited/reInvite': {
    body: { userName: 'matrix-invitee' },
  },
  'POST /ui/api/v1/ui/groups': { body: { name: 'matrix-group' } },
  'POST /ui/api/v1/ui/groups/delete': { body: { groupNames: ['doomed-group-ui'] } },
  'POST /ui/api/v1/access/permissions': {
    body: {
      name: 'matrix-new-target',
      repo: {
        repositories: ['matrix-local'],
        actions: { users: { victim: ['read'] }, groups: {} },
      },
    },
  },
  'POST /ui/api/v1/access/permissions/delete': { body: { names: ['doomed-target-ui'] } },
  'PUT /artifactory/api/security/users/:name': {
    body: { email: 'rest-made@example.com', password: 'Rest-made-1' },
  },
  'PUT /ui/api/v1/ui/maintenance': { body: DEFAULT_MAINTENANCE },
  // Documents that name no section, or one as it is: checked, and nothing changes.
  'PUT /ui/api/v1/ui/configdescriptor': { body: { configXml: '<config version="1"/>' } },
  'PATCH /artifactory/api/system/configuration': {
    raw: () => ({ contentType: 'application/yaml', payload: 'general: {}\n' }),
  },
  'POST /ui/api/v1/ui/admin/repositories/testremote': { body: () => ({ url: MADE.upstreamUrl! }) },
  'POST /ui/api/v1/ui/artifactactions/restore': {
    body: { repoKey: 'auto-trashcan', path: 'matrix-local/org/doomed.txt', dryRun: true },
  },
  'POST /ui/api/v1/ui/artifactactions/zap': { body: { repoKey: 'matrix-remote', path: '' } },
  'POST /ui/api/v1/ui/artifactactions/zapVirtual': { body: { repoKey: 'matrix-virtual' } },
  'POST /ui/api/v1/ui/artifactactions/calculateIndex': {
    body: { repoKey: 'matrix-npm', type: 'npm' },
  },
};

/** Set Me Up's generated settings, for repositories the reader may read. */
const SET_ME_UP: Record<string, ShapedRequest> = {
  'GET /ui/api/v1/ui/mavenDistributionManagement': { query: 'repoKey=matrix-maven' },
  'POST /ui/api/v1/ui/mavenSettings': {
    body: {
      release: 'matrix-maven',
      snapshot: 'matrix-maven',
      pluginRelease: 'matrix-maven',
      pluginSnapshot: 'matrix-maven',
    },
  },
  'POST /ui/api/v1/ui/gradleSettings': {
    body: {
      pluginResolver: 'matrix-maven',
      libsResolver: 'matrix-maven',
      libsPublisher: 'matrix-maven',
    },
  },
  'POST /ui/api/v1/ui/ivySettings': {
    body: { libsRepository: 'matrix-maven', m2Compatible: true },
  },
  'POST /artifactory/api/pypi/:repoKey': { raw: () => preparedUpload! },
};

/**
 * For the routes that name a node in their query or body: a request naming
 * matrix-local/org/file.txt (or its sibling org/file.zip), which the reader may read and the
 * plain user may not. The delete and the changes name files of their own, so that the file
 * stays for the rest.
 */
const NODE = { repoKey: 'matrix-local', path: 'org/file.txt' };
const NODE_QUERY = 'repoKey=matrix-local&path=org%2Ffile.txt';
const NODE_REQUESTS: Record<string, ShapedRequest> = {
  'GET /ui/api/v1/ui/artifactactions/downloadfolder': {
    query: 'repoKey=matrix-local&path=org&archiveType=zip',
  },
  'GET /ui/api/v1/ui/artifactactions/downloadfolderinfo': {
    query: 'repoKey=matrix-local&path=org',
  },
  'GET /artifactory/api/archive/download/:repoKey/*': { query: 'archiveType=zip' },
  'GET /ui/api/v1/ui/repopropertyset': { query: 'repoKey=matrix-local' },
  'GET /ui/api/v1/ui/dependencydeclaration': { query: `${NODE_QUERY}&buildtool=maven` },
  'GET /ui/api/v1/ui/artifactproperties': { query: NODE_QUERY },
  'GET /ui/api/v1/ui/artifactwatches': { query: NODE_QUERY },
  'POST /artifactory/api/copy/:repoKey/*': { query: 'to=/matrix-local/copied/file.txt&dry=1' },
  'POST /artifactory/api/move/:repoKey/*': { query: 'to=/matrix-local/moved/file.txt&dry=1' },
  'POST /ui/api/v1/ui/artifactactions/copy': {
    body: { ...NODE, targetRepoKey: 'matrix-local', targetPath: 'copied/', dryRun: true },
  },
  'POST /ui/api/v1/ui/artifactactions/move': {
    body: { ...NODE, targetRepoKey: 'matrix-local', targetPath: 'moved/', dryRun: true },
  },
  'POST /ui/api/v1/ui/artifactactions/delete': {
    body: { repoKey: 'matrix-local', path: 'org/doomed.txt', permDelete: false },
  },
  'POST /ui/api/v1/ui/treebrowser': {
    body: { type: 'junction', repoKey: 'matrix-local', path: 'org' },
  },
  'POST /ui/api/v1/ui/treebrowser/tabsAndActions': {
    body: { type: 'file', ...NODE, repoType: 'local', repoPkgType: 'Generic' },
  },
  'POST /ui/api/v1/ui/artifactgeneral': { body: { type: 'file', ...NODE } },
  'POST /ui/api/v1/ui/artifactgeneral/artifactsCount': {
    body: { repoKey: 'matrix-local', path: 'org' },
  },
  'POST /ui/api/v1/ui/checksums/fix': { body: NODE },
  'POST /ui/api/v1/ui/artifactproperties': {
    query: `${NODE_QUERY}&recursive=false`,
    body: { name: 'matrix', value: ['1'] },
  },
  'POST /ui/api/v1/ui/deleteproperties': {
    query: `${NODE_QUERY}&recursive=false`,
    body: { properties: ['matrix'] },
  },
  'POST /ui/api/v1/ui/artifactwatches': { body: NODE },
  'POST /ui/api/v1/ui/artifactwatches/remove': { body: NODE },
  'POST /ui/api/v1/ui/archiveViewSource': {
    body: { repoKey: 'matrix-local', archivePath: 'org/file.zip' },
  },
  'POST /ui/api/v1/ui/views': {
    body: { repoKey: 'matrix-maven', path: 'org/acme/lib/1.0/lib-1.0.pom', view: 'PomView' },
  },
  'POST /ui/api/v1/ui/artifactactions/view': { body: NODE },
  'POST /ui/api/v1/ui/views/dockerv2': { body: { repoKey: 'matrix-docker', path: 'img/v1' } },
  'PUT /artifactory/api/storage/:repoKey/*': { query: 'properties=matrix=1' },
  'DELETE /artifactory/api/storage/:repoKey/*': { query: 'properties=matrix' },
};

/** A webhook subscription in the Event API's shape, delivering to the loopback upstream. */
export const matrixSubscription = (key: string) => ({
  key,
  description: 'the route table',
  enabled: true,
  event_filter: {
    domain: 'artifact',
    event_types: ['deployed'],
    criteria: { anyLocal: false, anyRemote: false, repoKeys: ['matrix-local'] },
  },
  handlers: [{ handler_type: 'webhook', url: MADE.upstreamUrl! }],
});

/** The calls of the clients and scripts of issue 24 and of the Event API, on real things. */
const CLIENT_CALLS: Record<string, ShapedRequest> = {
  'GET /artifactory/api/search/versions': { query: 'g=org.acme&a=lib' },
  'GET /artifactory/api/npm/:repoKey/-/_view/starredByUser': { query: 'key=%22victim%22' },
  'POST /artifactory/api/security/token/revoke': { body: { token_id: 'no-such-token-id' } },
  'PATCH /artifactory/api/metadata/:repoKey/*': { body: { props: { 'matrix.patched': 'yes' } } },
  'POST /event/api/v1/subscriptions': { body: () => matrixSubscription('matrix-hook-new') },
  'POST /event/api/v1/subscriptions/test': { body: () => matrixSubscription('matrix-hook-test') },
  'PUT /event/api/v1/subscriptions/:key': {
    body: () => {
      const { key: _key, ...withoutKey } = matrixSubscription('matrix-hook');
      return { ...withoutKey, description: 'changed by the route table' };
    },
  },
};

/** An OCI manifest naming a layer the image lacks: what a push's last call sends. */
const REGISTRY_MANIFEST: ShapedRequest = {
  raw: () => {
    const descriptor = (text: string) => ({
      mediaType: 'application/octet-stream',
      digest: `sha256:${sha256(text)}`,
      size: text.length,
    });
    const manifest = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: descriptor('{}'),
      layers: [descriptor('layer')],
    };
    return {
      contentType: 'application/vnd.oci.image.manifest.v1+json',
      payload: JSON.stringify(manifest),
    };
  },
};

/** A policy's form to preview and convert; an archive search; a restore of nothing archived. */
const RETENTION_POLICY = {
  key: 'matrix-policy',
  cronExp: '0 0 3 ? * SUN',
  repositories: ['matrix-local'],
};
const RETENTION: Record<string, ShapedRequest> = {
  'POST /ui/api/v1/ui/retention/archive/policies/preview': { body: RETENTION_POLICY },
  'POST /ui/api/v1/ui/retention/archive/policies/convertToAql': { body: RETENTION_POLICY },
  'POST /ui/api/v1/ui/retention/search': {
    raw: () => ({ contentType: 'text/plain', payload: 'items.find({"repo":"matrix-local"})' }),
  },
  'POST /ui/api/v1/ui/retention/restore': {
    body: {
      restoreToOriginal: true,
      itemsToRestore: [{ repo: 'matrix-local', path: 'org', name: 'file.txt' }],
    },
  },
};

export const REQUESTS: Record<string, ShapedRequest> = {
  'PUT /v2/*': REGISTRY_MANIFEST,
  'PUT /artifactory/api/docker/:repoKey/v2/*': REGISTRY_MANIFEST,
  'POST /artifactory/api/docker/:repoKey/v2/promote': {
    body: {
      targetRepo: 'matrix-docker',
      dockerRepository: 'img',
      tag: 'v1',
      targetTag: 'v1-promoted',
      copy: true,
    },
  },
  ...CLIENT_CALLS,
  ...NODE_REQUESTS,
  ...SEARCHES,
  ...CREDENTIAL_FLOWS,
  ...ADMINISTRATION,
  ...SET_ME_UP,
  ...WELL_FORMED,
  ...BUCKET_REQUESTS,
  ...BUILDS,
  // An export of the table's own Depot into its default backup directory; an import of a
  // path that holds no backup (a Depot with repositories refuses one anyway).
  'POST /artifactory/api/export/system': { body: { exportPath: 'route-table-export' } },
  'POST /artifactory/api/import/system': { body: { importPath: 'route-table-export' } },
  'POST /artifactory/api/export/repositories': {
    body: { exportPath: 'route-table-repos', repositories: ['matrix-local'] },
  },
  'POST /artifactory/api/import/repositories': {
    body: { importPath: 'route-table-repos/matrix-local', repo: 'matrix-local' },
  },
  ...RETENTION,
};

/**
 * Routes whose URL names one thing of its own rather than the usual matrix-local/org/file.txt:
 * npm's publish and unpublish (one of the admin's packages, in a repository only they may
 * write), a folder to download. The schema engine's routes are not here: their requests come
 * from the descriptors (engine-requests.ts).
 */
/** The registry's calls on an image of `matrix-docker`, under both of its addresses. */
function registryUrls(): Record<string, () => string> {
  const noDigest = `sha256:${'0'.repeat(64)}`;
  const noUpload = '00000000-0000-4000-8000-000000000000';
  const calls: Record<string, string> = {
    GET: 'img/tags/list',
    POST: 'img/blobs/uploads/',
    PUT: 'img/manifests/v1',
    PATCH: `img/blobs/uploads/${noUpload}`,
    DELETE: `img/manifests/${noDigest}`,
  };
  const urls: Record<string, () => string> = {};
  for (const [method, call] of Object.entries(calls)) {
    urls[`${method} /v2/*`] = () => `/v2/matrix-docker/${call}`;
    urls[`${method} /artifactory/api/docker/:repoKey/v2/*`] = () =>
      `/artifactory/api/docker/matrix-docker/v2/${call}`;
  }
  // HEAD of a manifest: the call every pull starts with.
  urls['HEAD /v2/*'] = () => '/v2/matrix-docker/img/manifests/v1';
  urls['HEAD /artifactory/api/docker/:repoKey/v2/*'] = () =>
    '/artifactory/api/docker/matrix-docker/v2/img/manifests/v1';
  urls['POST /artifactory/api/docker/:repoKey/v2/promote'] = () =>
    '/artifactory/api/docker/matrix-docker/v2/promote';
  return urls;
}

export const FIXED_URLS: Record<string, () => string> = {
  ...BUCKET_URLS,
  ...registryUrls(),
  'GET /artifactory/api/npm/:repoKey/auth/:scope': () =>
    '/artifactory/api/npm/matrix-npm/auth/acme',
  'GET /event/api/v1/subscriptions/:key': () => '/event/api/v1/subscriptions/matrix-hook',
  'PUT /event/api/v1/subscriptions/:key': () => '/event/api/v1/subscriptions/matrix-hook',
  'DELETE /event/api/v1/subscriptions/:key': () => '/event/api/v1/subscriptions/matrix-hook',
  'PUT /artifactory/api/npm/:repoKey/*': () => '/artifactory/api/npm/matrix-npm/matrix-pkg',
  'DELETE /artifactory/api/npm/:repoKey/*': () =>
    '/artifactory/api/npm/matrix-npm/matrix-pkg/-rev/1',
  'GET /artifactory/api/archive/download/:repoKey/*': () =>
    '/artifactory/api/archive/download/matrix-local/org',
  'PUT /artifactory/api/security/users/:name': () => '/artifactory/api/security/users/rest-made',
  'GET /artifactory/api/build/:name': () => '/artifactory/api/build/matrix-build',
  'GET /artifactory/api/build/:name/:number': () => '/artifactory/api/build/matrix-build/1',
  'DELETE /artifactory/api/build/:name': () => '/artifactory/api/build/matrix-doomed-build',
  'POST /artifactory/api/build/rename/:name': () =>
    '/artifactory/api/build/rename/matrix-renamed-build',
  'POST /artifactory/api/build/promote/:name/:number': () =>
    '/artifactory/api/build/promote/matrix-build/1',
  'PUT /artifactory/api/npm/:repoKey/-/user/:couchUser': () =>
    '/artifactory/api/npm/matrix-npm/-/user/org.couchdb.user:victim',
  'GET /ui/api/v1/ui/auth/validatetoken': () =>
    `/ui/api/v1/ui/auth/validatetoken?key=${MADE.resetKey!}`,
  'DELETE /artifactory/api/npm/:repoKey/-/user/token/:token': () =>
    `/artifactory/api/npm/matrix-npm/-/user/token/${MADE.adminNpmToken!}`,
  'POST /ui/api/v1/ui/auth/resetpassword': () =>
    `/ui/api/v1/ui/auth/resetpassword?key=${MADE.resetKey!}`,
  'DELETE /access/api/v1/topology/:service_id/:node_id': () =>
    '/access/api/v1/topology/artifactory/matrix-gone-node',
  'GET /ui/api/v1/system/logs/config/:service': () => '/ui/api/v1/system/logs/config/artifactory',
  'GET /ui/api/v1/system/logs/data/:service': () =>
    '/ui/api/v1/system/logs/data/artifactory?id=depot-service.log',
};
