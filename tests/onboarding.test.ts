import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.ts';
import { logDirOf } from '../server/logger.ts';
import { createOnboardingService } from '../server/modules/onboarding/service.ts';
import { ONBOARDING_MESSAGES } from '../server/modules/onboarding/messages.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';
import { until } from './helpers/webhook-receiver.ts';

/**
 * The first-run quick setup (spec 03 "Onboarding", docs/onboarding.md) on one server: its
 * state, the types it offers, and the one call that creates every repository or none.
 */
let depot: TestDepot;
const NPM_UPSTREAM = 'http://npm-upstream.example';
const plain = { authorization: basic('plain', 'plain-pass-1') };

beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_QUICK_SETUP_UPSTREAMS: `npm=${NPM_UPSTREAM}` });
  await depot.services.users.create({
    name: 'plain',
    email: 'p@example.com',
    password: 'plain-pass-1',
    groups: [],
  });
});
afterAll(() => depot?.close());

const call = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object,
  headers: Record<string, string> = adminAuth(),
) => depot.app.inject({ method, url: `/ui/api/v1${url}`, payload, headers });
const create = (body: object, headers?: Record<string, string>) =>
  call('POST', '/ui/onboarding/createDefaultRepos', body, headers);
const keys = async () =>
  (await call('GET', '/ui/admin/repositories')).json().map((r: { repoKey: string }) => r.repoKey);

describe('the quick setup', () => {
  it('is pending on a new instance and offers the types Depot serves, upstreams as configured', async () => {
    const state = await call('GET', '/system/onboarding');
    expect(state.statusCode).toBe(200);
    expect(state.json()).toEqual({ quickSetup: 'pending', offerQuickSetup: true });

    const types = await call('GET', '/ui/onboarding/reposStates');
    expect(types.statusCode).toBe(200);
    const offered = types.json().repoStates as Array<Record<string, string>>;
    expect(offered.map((t) => t.packageType)).toEqual(
      expect.arrayContaining(['npm', 'pypi', 'maven', 'docker']),
    );
    expect(offered.map((t) => t.packageType)).not.toContain('generic');
    expect(offered.find((t) => t.packageType === 'npm')).toEqual({
      packageType: 'npm',
      label: 'npm',
      state: 'UNSET',
      upstreamUrl: NPM_UPSTREAM,
    });
    expect(offered.find((t) => t.packageType === 'pypi')?.upstreamUrl).toBe('');
  });

  it('is for admins only', async () => {
    expect((await call('GET', '/system/onboarding', undefined, plain)).statusCode).toBe(403);
    expect((await call('GET', '/ui/onboarding/reposStates', undefined, plain)).statusCode).toBe(
      403,
    );
    const refused = await create(
      { prefix: 'mine', packageTypes: [{ packageType: 'npm', upstreamUrl: NPM_UPSTREAM }] },
      plain,
    );
    expect(refused.statusCode).toBe(403);
    expect(
      (await call('PUT', '/system/onboarding', { quickSetup: 'skipped' }, plain)).statusCode,
    ).toBe(403);
    expect(await keys()).not.toContain('mine-npm-local');
  });

  it('refuses bad input with a clear message and creates nothing', async () => {
    const noPrefix = await create({ prefix: ' ', packageTypes: [{ packageType: 'npm' }] });
    expect(noPrefix.statusCode).toBe(400);
    expect(noPrefix.json().errors[0]).toMatchObject({
      message: ONBOARDING_MESSAGES.prefixRequired,
      field: 'prefix',
    });
    const none = await create({ prefix: 'team', packageTypes: [] });
    expect(none.json().errors[0].message).toBe(ONBOARDING_MESSAGES.noPackageTypes);
    const generic = await create({ prefix: 'team', packageTypes: [{ packageType: 'generic' }] });
    expect(generic.json().errors[0].message).toBe(ONBOARDING_MESSAGES.notOffered('generic'));
    // The second type's remote has no upstream: the first type's repositories are not made.
    const noUpstream = await create({
      prefix: 'team',
      packageTypes: [{ packageType: 'npm', upstreamUrl: NPM_UPSTREAM }, { packageType: 'pypi' }],
    });
    expect(noUpstream.statusCode).toBe(400);
    expect(noUpstream.json().errors[0]).toMatchObject({
      message: 'team-pypi-remote: Please enter a valid url',
      field: 'upstreamUrl',
    });
    const badKey = await create({
      prefix: 'Bad Prefix',
      packageTypes: [{ packageType: 'npm', upstreamUrl: NPM_UPSTREAM }],
    });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().errors[0].message).toMatch(/^Bad Prefix-npm-local: /);
    expect((await keys()).filter((key: string) => key.startsWith('team-'))).toEqual([]);
    expect((await call('GET', '/system/onboarding')).json().quickSetup).toBe('pending');
  });

  it('refuses every repository when one key exists, naming it, and creates none', async () => {
    const taken = await call('POST', '/ui/admin/repositories', {
      type: 'local',
      general: { repoKey: 'acme-pypi-local' },
      typeSpecific: { repoType: 'pypi' },
    });
    expect(taken.statusCode).toBe(201);
    const clash = await create({
      prefix: 'acme',
      packageTypes: [
        { packageType: 'npm', upstreamUrl: NPM_UPSTREAM },
        { packageType: 'pypi', upstreamUrl: 'http://pypi-upstream.example' },
      ],
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().errors[0].message).toBe("Repository 'acme-pypi-local' already exists");
    expect((await keys()).filter((key: string) => key.startsWith('acme-'))).toEqual([
      'acme-pypi-local',
    ]);
    expect((await call('GET', '/system/onboarding')).json().quickSetup).toBe('pending');
  });

  it('stores a skip: the quick setup is not offered again', async () => {
    const skip = await call('PUT', '/system/onboarding', { quickSetup: 'skipped' });
    expect(skip.statusCode).toBe(200);
    expect(skip.json()).toMatchObject({
      quickSetup: 'skipped',
      offerQuickSetup: false,
      by: 'admin',
    });
    expect((await call('GET', '/system/onboarding')).json()).toMatchObject({
      quickSetup: 'skipped',
      offerQuickSetup: false,
    });
  });

  it('creates local, remote and virtual repositories per type in one call and is done', async () => {
    const created = await create({
      prefix: 'dflt',
      packageTypes: [{ packageType: 'npm', upstreamUrl: NPM_UPSTREAM }],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      info: 'All repositories were created successfully',
      repositories: [
        { key: 'dflt-npm-local', rclass: 'local', packageType: 'npm' },
        { key: 'dflt-npm-remote', rclass: 'remote', packageType: 'npm' },
        { key: 'dflt-npm-virtual', rclass: 'virtual', packageType: 'npm' },
      ],
    });
    const virtual = await depot.app.inject({
      url: '/artifactory/api/repositories/dflt-npm-virtual',
      headers: adminAuth(),
    });
    expect(virtual.json()).toMatchObject({
      repositories: ['dflt-npm-local', 'dflt-npm-remote'],
      defaultDeploymentRepo: 'dflt-npm-local',
    });
    const remote = await depot.app.inject({
      url: '/artifactory/api/repositories/dflt-npm-remote',
      headers: adminAuth(),
    });
    expect(remote.json().url).toBe(NPM_UPSTREAM);

    const state = (await call('GET', '/system/onboarding')).json();
    expect(state).toMatchObject({ quickSetup: 'done', offerQuickSetup: false, by: 'admin' });
    const npm = (await call('GET', '/ui/onboarding/reposStates'))
      .json()
      .repoStates.find((t: { packageType: string }) => t.packageType === 'npm');
    expect(npm.state).toBe('ALREADY_SET');
    // Done after a skip (the quick actions menu reopens it); skipping again does not undo it.
    const skipped = await call('PUT', '/system/onboarding', { quickSetup: 'skipped' });
    expect(skipped.json().quickSetup).toBe('done');

    // The audit log names who did it.
    const auditLog = join(logDirOf(depot.config), 'depot-audit.log');
    await until(
      () =>
        existsSync(auditLog) &&
        readFileSync(auditLog, 'utf8').includes(
          '|admin|configuration|ok|POST /ui/api/v1/ui/onboarding/createDefaultRepos|',
        ),
      'the audit line of the quick setup',
    );
  });
});

describe('the personalisation wizard', () => {
  const answers = {
    purpose: 'Commercial',
    companyName: ' Acme ',
    role: 'Other',
    otherRole: 'Release manager',
    desiredFeatures: ['Binary management', 'SBOM'],
  };

  it('is offered to each admin until answered, and keeps the first answer', async () => {
    expect((await call('GET', '/ui/onboarding')).json()).toEqual({
      personalization: 'pending',
      offerPersonalization: true,
    });
    const missing = await call('PUT', '/ui/onboarding', { ...answers, companyName: ' ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0]).toMatchObject({
      message: 'You must fill in this field',
      field: 'companyName',
    });
    const noFeature = await call('PUT', '/ui/onboarding', { ...answers, desiredFeatures: [] });
    expect(noFeature.json().errors[0].message).toBe('Select at least one feature');
    const badRole = await call('PUT', '/ui/onboarding', { ...answers, role: 'Wizard' });
    expect(badRole.statusCode).toBe(400);
    expect((await call('GET', '/ui/onboarding')).json().personalization).toBe('pending');

    const saved = await call('PUT', '/ui/onboarding', { ...answers, ossProjectName: 'ignored' });
    expect(saved.statusCode).toBe(200);
    const stored = {
      personalization: 'done',
      offerPersonalization: false,
      answers: {
        purpose: 'Commercial',
        companyName: 'Acme',
        role: 'Other',
        otherRole: 'Release manager',
        desiredFeatures: ['Binary management', 'SBOM'],
      },
    };
    expect(saved.json()).toEqual(stored);
    // A skip afterwards (a second tab) changes nothing.
    expect((await call('PUT', '/ui/onboarding', { skipped: true })).json()).toEqual(stored);
  });

  it('is per admin: another admin skips it for themselves only; users may not call it', async () => {
    await depot.services.users.create({
      name: 'second-admin',
      email: 's@example.com',
      password: 'second-pass-1',
      admin: true,
      groups: [],
    });
    const second = { authorization: basic('second-admin', 'second-pass-1') };
    expect((await call('GET', '/ui/onboarding', undefined, second)).json()).toEqual({
      personalization: 'pending',
      offerPersonalization: true,
    });
    const skipped = await call('PUT', '/ui/onboarding', { skipped: true }, second);
    expect(skipped.json()).toEqual({ personalization: 'skipped', offerPersonalization: false });
    expect((await call('GET', '/ui/onboarding')).json().personalization).toBe('done');
    expect((await call('GET', '/ui/onboarding', undefined, plain)).statusCode).toBe(403);
    expect((await call('PUT', '/ui/onboarding', { skipped: true }, plain)).statusCode).toBe(403);
  });
});

describe('an instance provisioned without the quick setup', () => {
  it('never offers it (DEPOT_QUICK_SETUP_ON_FIRST_LOGIN=false), whatever its state', async () => {
    const { db, catalogue, repositories } = depot.services;
    const provisioned = createOnboardingService(db, catalogue, repositories, {
      offerOnFirstLogin: false,
      upstreams: {},
    });
    expect((await provisioned.view()).offerQuickSetup).toBe(false);
    expect(loadConfig({ DEPOT_QUICK_SETUP_ON_FIRST_LOGIN: 'false' }).onboarding).toEqual({
      offerOnFirstLogin: false,
      upstreams: {},
    });
    expect(() => loadConfig({ DEPOT_QUICK_SETUP_UPSTREAMS: 'npm=ftp://x' })).toThrow(
      /DEPOT_QUICK_SETUP_UPSTREAMS/,
    );
  });
});
