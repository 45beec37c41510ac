import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import { signBucketFile } from '../../server/modules/license-buckets/bucket-file.ts';
import type { ShapedRequest } from './route-table-requests.ts';
import { adminAuth, type TestDepot } from './test-app.ts';

/**
 * License buckets in the route status table: a signing key of the table's own, the buckets
 * its calls name (`matrix-bucket`, and `doomed-bucket` for the delete) and the add form.
 */
const signing = generateKeyPairSync('ed25519');

/** What the table's Depot verifies bucket files with (DEPOT_LICENSE_PUBLIC_KEY). */
export const MATRIX_BUCKET_PUBLIC_KEY = signing.publicKey
  .export({ type: 'spki', format: 'pem' })
  .toString();

async function bucketForm(identifier: string) {
  const file = signBucketFile(
    {
      identifier,
      licenseType: 'ENTERPRISE',
      customerName: 'Matrix',
      issueDate: '2026-01-01',
      expiryDate: '2099-12-31',
      quantity: 10,
    },
    signing.privateKey,
  );
  const form = new FormData();
  form.set('name', identifier);
  form.set('file', new Blob([file]), `${identifier}.json`);
  const encoded = new Response(form);
  return {
    contentType: encoded.headers.get('content-type')!,
    payload: Buffer.from(await encoded.arrayBuffer()),
  };
}
let addForm: { contentType: string; payload: Buffer } | undefined;

/**
 * Adds the buckets the calls name (by default the status table's), and prepares the add
 * call's own form.
 */
export async function addMatrixBuckets(
  depot: TestDepot,
  identifiers = ['matrix-bucket', 'doomed-bucket'],
) {
  for (const identifier of identifiers) {
    const { contentType, payload } = await bucketForm(identifier);
    const added = await depot.app.inject({
      method: 'POST',
      url: '/mc/api/v1/buckets',
      headers: { ...adminAuth(), 'content-type': contentType },
      payload,
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  addForm = await bucketForm('matrix-added');
}

export const BUCKET_REQUESTS: Record<string, ShapedRequest> = {
  'POST /mc/api/v1/buckets': { raw: () => addForm! },
  'POST /mc/api/v1/buckets/:id/split': { body: { name: 'matrix-split', licenses: 1 } },
  'POST /mc/api/v1/buckets/:id/attach': {
    body: { attachments: [{ deployment: 'home', licenses: 1 }] },
  },
  // After the attach (the table calls in order): the license it attached comes back.
  'POST /mc/api/v1/buckets/:id/detach': { body: { deployments: ['home'] } },
};

/** Each call names the table's bucket; the delete its own. */
export const BUCKET_URLS: Record<string, () => string> = {
  'GET /mc/api/v1/buckets/:id': () => '/mc/api/v1/buckets/matrix-bucket',
  'GET /mc/api/v1/buckets/:id/status': () => '/mc/api/v1/buckets/matrix-bucket/status',
  'GET /mc/api/v1/buckets/:id/download': () => '/mc/api/v1/buckets/matrix-bucket/download',
  'POST /mc/api/v1/buckets/:id/split': () => '/mc/api/v1/buckets/matrix-bucket/split',
  'POST /mc/api/v1/buckets/:id/attach': () => '/mc/api/v1/buckets/matrix-bucket/attach',
  'POST /mc/api/v1/buckets/:id/detach': () => '/mc/api/v1/buckets/matrix-bucket/detach',
  'DELETE /mc/api/v1/buckets/:id': () => '/mc/api/v1/buckets/doomed-bucket',
};
