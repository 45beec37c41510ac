import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.ts';
import { signBucketFile, type BucketGrant } from '../server/modules/license-buckets/bucket-file.ts';
import { LICENSE_BUCKET_MESSAGES as M } from '../server/modules/license-buckets/messages.ts';
import { listBucketDocuments } from '../server/modules/license-buckets/queries.ts';
import { adminAuth, basic, startTestDepot, type TestDepot } from './helpers/test-app.ts';

/**
 * License buckets end to end (docs/license-buckets.md): a real Depot over HTTP, bucket files
 * signed with a key made here, and a loopback server for the adds by URL.
 */
const keyDir = mkdtempSync(join(tmpdir(), 'depot-bucket-keys-'));
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const otherKey = generateKeyPairSync('ed25519').privateKey;
const publicKeyFile = join(keyDir, 'bucket-signing.pub.pem');
writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));

const inAYear = new Date(Date.now() + 365 * 86400_000).toISOString().slice(0, 10);
const grant = (identifier: string, extra: Partial<BucketGrant> = {}): BucketGrant => ({
  identifier,
  licenseType: 'ENTERPRISE_PLUS',
  customerName: 'Acme Inc.',
  issueDate: '2026-01-15',
  expiryDate: inAYear,
  quantity: 10,
  ...extra,
});
const signed = (g: BucketGrant, key: KeyObject = privateKey) => signBucketFile(g, key);

let depot: TestDepot;
let base: string;
let upstream: Server;
let upstreamBase: string;
/** What the loopback upstream serves, by path. */
const served = new Map<string, string>();

beforeAll(async () => {
  depot = await startTestDepot({ DEPOT_LICENSE_PUBLIC_KEY: publicKeyFile });
  await depot.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(depot.app.server.address() as AddressInfo).port}/mc/api/v1`;
  upstream = createServer((request, response) => {
    const body = served.get(request.url ?? '');
    if (body === undefined) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  await depot.services.users.create({
    name: 'plain',
    email: 'plain@example.com',
    password: 'plain-pass-1',
  });
});

afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
  await depot?.close();
  rmSync(keyDir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown, auth = adminAuth()) =>
  fetch(`${base}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

function upload(
  name: string | undefined,
  file: string | Uint8Array<ArrayBuffer>,
  filename = 'bucket.json',
) {
  const form = new FormData();
  if (name !== undefined) form.set('name', name);
  form.set('file', new Blob([file]), filename);
  return fetch(`${base}/buckets`, { method: 'POST', headers: adminAuth(), body: form });
}

const errorOf = async (response: Response) =>
  ((await response.json()) as { errors: { message: string; field?: string }[] }).errors[0]!;
const listed = async () =>
  (await (await call('GET', '/buckets')).json()) as Record<string, unknown>[];

describe('adding a bucket', () => {
  it('takes a signed file and lists it with its columns', async () => {
    const added = await upload('main-1.0', signed(grant('acme-main')));
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({
      info: M.added,
      bucket: { identifier: 'acme-main' },
    });
    const row = (await listed()).find((bucket) => bucket.identifier === 'acme-main');
    expect(row).toMatchObject({
      name: 'main-1.0',
      licenseType: 'ENTERPRISE_PLUS',
      issueDate: '2026-01-15',
      expiryDate: inAYear,
      used: 0,
      size: 10,
      available: 10,
      customerName: 'Acme Inc.',
      totalProjects: 0,
    });
    expect(row).not.toHaveProperty('signedFile');
  });

  it('refuses a tampered file, a file signed by another key, an unsigned and an expired one', async () => {
    const tampered = signed(grant('tampered')).replace('"quantity": 10', '"quantity": 1000');
    expect(await errorOf(await upload('t1', tampered))).toMatchObject({
      message: M.badSignature,
      field: 'file',
    });
    expect((await errorOf(await upload('t2', signed(grant('other'), otherKey)))).message).toBe(
      M.badSignature,
    );
    const unsigned = JSON.stringify({
      format: 'depot-license-bucket/1',
      bucket: grant('unsigned'),
    });
    expect((await errorOf(await upload('t3', unsigned))).message).toBe(
      M.notBucket('it is not signed'),
    );
    const expired = signed(grant('old', { expiryDate: '2020-01-01' }));
    expect((await errorOf(await upload('t4', expired))).message).toBe(M.expired('2020-01-01'));
    expect((await errorOf(await upload('t5', 'not json'))).message).toBe(M.notJson);
    const names = (await listed()).map((bucket) => bucket.name);
    for (const name of ['t1', 't2', 't3', 't4', 't5']) expect(names).not.toContain(name);
  });

  it("answers the spec's messages for the form's fields", async () => {
    const file = signed(grant('fields'));
    expect((await errorOf(await upload(undefined, file))).message).toBe(M.mandatory);
    expect((await errorOf(await upload('bad name!', file))).message).toBe(M.badName);
    expect((await errorOf(await upload('fine', file, 'bucket.txt'))).message).toBe(M.notJsonFile);
    const big = new Uint8Array(13 * 1024 * 1024).fill(0x20);
    expect((await errorOf(await upload('big', big))).message).toBe(M.fileTooLarge);
    const byUrl = { name: 'u', url: 'ftp://example.com/b.json', signedUrl: 'x', key: 'k' };
    expect((await errorOf(await call('POST', '/buckets', byUrl))).message).toBe(M.badUrl);
    expect((await errorOf(await call('POST', '/buckets', { name: 'u' }))).message).toBe(
      M.mandatory,
    );
  });

  it('refuses a name or a bucket already added', async () => {
    expect((await upload('main-1.0', signed(grant('another')))).status).toBe(409);
    const again = await upload('second-name', signed(grant('acme-main')));
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe("Bucket 'acme-main' was already added");
  });

  it('fetches a file by URL through the upstream guard, with its key', async () => {
    const key = 'bucket-key-1';
    const keySha256 = createHash('sha256').update(key).digest('hex');
    served.set('/by-url.json', signed(grant('by-url', { keySha256 })));
    const body = {
      name: 'from-url',
      url: 'https://licenses.example.com/buckets/by-url',
      signedUrl: `${upstreamBase}/by-url.json`,
      key,
    };
    const blocked = await call('POST', '/buckets', body);
    expect(blocked.status).toBe(400);
    expect((await errorOf(blocked)).message).toMatch(/private or reserved/);
    await depot.services.securityConfig.update({ remoteAllowList: ['127.0.0.1'] });
    try {
      expect(
        (await errorOf(await call('POST', '/buckets', { ...body, key: 'wrong' }))).message,
      ).toBe(M.keyMismatch);
      const added = await call('POST', '/buckets', body);
      expect(added.status).toBe(201);
      expect(await added.json()).toMatchObject({ bucket: { identifier: 'by-url', url: body.url } });
    } finally {
      await depot.services.securityConfig.update({ remoteAllowList: [] });
    }
  });
});

describe('a bucket at work', () => {
  it('splits off licenses, refusing too many and decimals', async () => {
    await upload('parent', signed(grant('parent-b')));
    const tooMany = await call('POST', '/buckets/parent-b/split', { name: 'child', licenses: 11 });
    expect(await errorOf(tooMany)).toMatchObject({ message: M.tooHigh, field: 'licenses' });
    const decimal = await call('POST', '/buckets/parent-b/split', { name: 'child', licenses: 1.5 });
    expect((await errorOf(decimal)).message).toBe(M.decimal);
    const missing = await call('POST', '/buckets/parent-b/split', { name: 'child' });
    expect((await errorOf(missing)).message).toBe(M.mandatory);
    const split = await call('POST', '/buckets/parent-b/split', { name: 'child', licenses: 4 });
    expect(split.status).toBe(201);
    expect(await split.json()).toMatchObject({
      bucket: { identifier: 'parent-b.child', parent: 'parent-b', size: 4, available: 4 },
    });
    expect(await (await call('GET', '/buckets/parent-b')).json()).toMatchObject({
      used: 4,
      available: 6,
    });
  });

  it('attaches licenses to an ONLINE deployment, never more than are available', async () => {
    const over = await call('POST', '/buckets/parent-b/attach', {
      attachments: [{ deployment: 'home', licenses: 7 }],
    });
    expect((await errorOf(over)).message).toBe(M.overAvailable);
    const unknown = await call('POST', '/buckets/parent-b/attach', {
      attachments: [{ deployment: 'elsewhere', licenses: 1 }],
    });
    expect(unknown.status).toBe(404);
    const attached = await call('POST', '/buckets/parent-b/attach', {
      attachments: [{ deployment: 'home', licenses: 2 }],
    });
    expect(attached.status).toBe(200);
    expect(await attached.json()).toMatchObject({ bucket: { used: 6, available: 4 } });
    const fromSplit = await call('POST', '/buckets/parent-b.child/attach', {
      attachments: [{ deployment: 'home', licenses: 1 }],
    });
    expect(fromSplit.status).toBe(200);
  });

  it('reports what the bucket holds and where its licenses went', async () => {
    const report = await call('GET', '/buckets/parent-b/status');
    expect(report.status).toBe(200);
    expect(await report.json()).toMatchObject({
      identifier: 'parent-b',
      totalLicenses: 10,
      expiryDate: inAYear,
      maxConsumed: 6,
      unknownUsage: 0,
      pipelinesNodes: 0,
      deployments: [{ id: 'home', status: 'ONLINE', licenses: 2 }],
      splits: [{ identifier: 'parent-b.child', size: 4, used: 1 }],
      totalProjects: 0,
    });
  });

  it('downloads the signed file byte for byte, and says why a split has none', async () => {
    const file = signed(grant('download-me'));
    await upload('download-me', file);
    const download = await call('GET', '/buckets/download-me/download');
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      'attachment; filename="download-me.json"',
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(file))).toBe(true);
    const split = await call('GET', '/buckets/parent-b.child/download');
    expect((await errorOf(split)).message).toBe(M.noFile('parent-b'));
  });

  it('deletes a split, giving its licenses back to its parent', async () => {
    const removed = await call('DELETE', '/buckets/parent-b.child');
    expect(await removed.json()).toEqual({ info: M.removed });
    // The split's attached license stays with the deployment, now counted on the parent.
    expect(await (await call('GET', '/buckets/parent-b')).json()).toMatchObject({
      used: 3,
      available: 7,
      attachments: [{ deployment: 'home', licenses: 3 }],
    });
  });

  it('deletes a parent with its splits', async () => {
    await call('POST', '/buckets/parent-b/split', { name: 'second', licenses: 2 });
    expect((await call('DELETE', '/buckets/parent-b')).status).toBe(200);
    const identifiers = (await listed()).map((bucket) => bucket.identifier);
    expect(identifiers).not.toContain('parent-b');
    expect(identifiers).not.toContain('parent-b.second');
    expect((await call('GET', '/buckets/parent-b.second')).status).toBe(404);
    const audit = await depot.services.entities.audit('license-bucket', 'parent-b');
    expect(audit[0]).toMatchObject({ action: 'delete', actor: 'admin' });
    expect(JSON.stringify(audit)).not.toContain('BEGIN');
  });
});

describe('licenses back from a deployment, and whole changes', () => {
  it('detaches the licenses a deployment holds, keeping the file and the most ever used', async () => {
    const file = signed(grant('detach-b'));
    await upload('detach', file);
    await call('POST', '/buckets/detach-b/attach', {
      attachments: [{ deployment: 'home', licenses: 2 }],
    });
    const home = (
      (await (await call('GET', '/buckets/detach-b/status')).json()) as {
        deployments: { name: string }[];
      }
    ).deployments[0]!.name;
    const detached = await call('POST', '/buckets/detach-b/detach', { deployments: ['home'] });
    expect(detached.status).toBe(200);
    expect(await detached.json()).toMatchObject({
      info: M.detached(2, home),
      bucket: { used: 0, available: 10, attachments: [] },
    });
    const again = await call('POST', '/buckets/detach-b/detach', { deployments: ['home'] });
    expect(await errorOf(again)).toMatchObject({ message: M.notAttached('detach', 'home') });
    const empty = await call('POST', '/buckets/detach-b/detach', { deployments: [] });
    expect((await errorOf(empty)).message).toBe(M.mandatory);
    expect(await (await call('GET', '/buckets/detach-b/status')).json()).toMatchObject({
      maxConsumed: 2,
      deployments: [{ id: 'home', licenses: 0 }],
    });
    // The counts changed around the sealed file, which downloads as it was added.
    const download = await call('GET', '/buckets/detach-b/download');
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(file))).toBe(true);
    const plain = await call(
      'POST',
      '/buckets/detach-b/detach',
      { deployments: ['home'] },
      { authorization: basic('plain', 'plain-pass-1') },
    );
    expect(plain.status).toBe(403);
  });

  it('lists buckets without reading their sealed files', async () => {
    const documents = await listBucketDocuments(depot.services.db);
    expect(documents.map((document) => document.identifier)).toContain('detach-b');
    for (const document of documents) expect(document).not.toHaveProperty('signedFile');
  });

  it('changes nothing, parent and audit trail included, when a split cannot be written', async () => {
    await upload('atomic', signed(grant('atomic-b')));
    const { db } = depot.services;
    const parentRow = async () =>
      (
        await sql<{ document: unknown }>`select document from entity_documents
          where entity = 'license-bucket' and key = 'atomic-b'`.execute(db)
      ).rows[0];
    const auditRows = async () =>
      (await sql`select id from entity_audit where entity = 'license-bucket'`.execute(db)).rows
        .length;
    // The split's own row cannot be written: what a crash between the two writes leaves.
    await sql`create function refuse_doomed_split() returns trigger language plpgsql as $$
      begin
        if new.key like '%.doomed' then raise exception 'the split is refused by the test'; end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger refuse_doomed_split before insert on entity_documents
      for each row execute function refuse_doomed_split()`.execute(db);
    try {
      const [parentBefore, auditBefore] = [await parentRow(), await auditRows()];
      const split = await call('POST', '/buckets/atomic-b/split', { name: 'doomed', licenses: 3 });
      expect(split.status).toBe(500);
      expect(await parentRow()).toEqual(parentBefore);
      expect(await auditRows()).toBe(auditBefore);
      expect((await call('GET', '/buckets/atomic-b.doomed')).status).toBe(404);
    } finally {
      await sql`drop trigger refuse_doomed_split on entity_documents`.execute(db);
      await sql`drop function refuse_doomed_split()`.execute(db);
    }
    const split = await call('POST', '/buckets/atomic-b/split', { name: 'kept', licenses: 3 });
    expect(split.status).toBe(201);
    expect(await (await call('GET', '/buckets/atomic-b')).json()).toMatchObject({
      used: 3,
      maxUsed: 3,
    });
  });
});

describe('who may', () => {
  it('refuses everything to a user who is not an admin', async () => {
    const user = { authorization: basic('plain', 'plain-pass-1') };
    for (const [method, path] of [
      ['GET', '/buckets'],
      ['GET', '/buckets/acme-main/status'],
      ['GET', '/buckets/acme-main/download'],
      ['DELETE', '/buckets/acme-main'],
    ] as const)
      expect((await call(method, path, undefined, user)).status, path).toBe(403);
    expect(
      (await call('POST', '/buckets/acme-main/split', { name: 'x', licenses: 1 }, user)).status,
    ).toBe(403);
  });

  it('refuses adds, naming the setting, when no public key is configured', async () => {
    const bare = await startTestDepot();
    try {
      const form = new FormData();
      form.set('name', 'x');
      form.set('file', new Blob([signed(grant('x'))]), 'x.json');
      const response = await bare.app.inject({
        method: 'POST',
        url: '/mc/api/v1/buckets',
        headers: adminAuth(),
        payload: form,
      });
      expect(response.json().errors[0].message).toBe(M.noPublicKey);
    } finally {
      await bare.close();
    }
  });
});

describe('the public key setting', () => {
  it('takes the PEM or its file, and refuses anything but an Ed25519 public key at start', () => {
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(loadConfig({ DEPOT_LICENSE_PUBLIC_KEY: pem }).licensePublicKey).toBe(pem);
    expect(loadConfig({ DEPOT_LICENSE_PUBLIC_KEY: publicKeyFile }).licensePublicKey).toBe(pem);
    expect(loadConfig({}).licensePublicKey).toBeUndefined();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    const rsaPem = rsa.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => loadConfig({ DEPOT_LICENSE_PUBLIC_KEY: rsaPem })).toThrow(/Ed25519/);
    expect(() => loadConfig({ DEPOT_LICENSE_PUBLIC_KEY: join(keyDir, 'missing.pem') })).toThrow(
      /cannot be read/,
    );
  });
});
