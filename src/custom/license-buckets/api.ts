import type { DescribedBucket } from '../../../server/modules/license-buckets/service.ts';
import { call, http } from '../../api/client';

/** The buckets live at the mission-control base, not under the console's prefix. */
const missionControl = http.extend({ prefixUrl: '/mc/api/v1' });

/** A bucket as the server answers it: the stored fields and its counts. */
export type Bucket = DescribedBucket;

export interface BucketReport extends Bucket {
  totalLicenses: number;
  maxConsumed: number;
  unknownUsage: number;
  pipelinesNodes: number;
  deployments: { id: string; name: string; status: string; licenses: number }[];
  splits: Bucket[];
}

export type BucketAdd =
  { name: string; file: File } | { name: string; url: string; signedUrl: string; key: string };

const one = (id: string) => `/buckets/${encodeURIComponent(id)}`;

export const bucketsApi = {
  list: () => call<Bucket[]>('GET', '/buckets', {}, missionControl),
  add: (bucket: BucketAdd) => {
    if ('file' in bucket) {
      const form = new FormData();
      form.set('name', bucket.name);
      form.set('file', bucket.file, bucket.file.name);
      return call<{ info: string }>('POST', '/buckets', { body: form }, missionControl);
    }
    return call<{ info: string }>('POST', '/buckets', { json: bucket }, missionControl);
  },
  remove: (id: string) => call<{ info: string }>('DELETE', one(id), {}, missionControl),
  split: ({ id, name, licenses }: { id: string; name: string; licenses: number }) =>
    call<{ info: string }>(
      'POST',
      `${one(id)}/split`,
      { json: { name, licenses } },
      missionControl,
    ),
  attach: ({ id, attachments }: { id: string; attachments: Bucket['attachments'] }) =>
    call<{ info: string }>('POST', `${one(id)}/attach`, { json: { attachments } }, missionControl),
  detach: ({ id, deployments }: { id: string; deployments: string[] }) =>
    call<{ info: string }>('POST', `${one(id)}/detach`, { json: { deployments } }, missionControl),
  report: (id: string) => call<BucketReport>('GET', `${one(id)}/status`, {}, missionControl),
  /** Where the browser downloads the signed file from (a plain link: it is a file). */
  downloadUrl: (id: string) => `/mc/api/v1${one(id)}/download`,
};
