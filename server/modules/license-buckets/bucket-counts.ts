/** A bucket as stored (schemas/entities/license-bucket.schema.json), its sealed file aside. */
export interface StoredBucket {
  identifier: string;
  name: string;
  licenseType: string;
  customerName: string;
  issueDate: string;
  expiryDate: string;
  size: number;
  splitOff: number;
  maxUsed: number;
  attachments: Attachment[];
  parent?: string;
  url?: string;
}

/** Licenses of a bucket counted out to one deployment. */
export interface Attachment {
  deployment: string;
  licenses: number;
}

/** A bucket as calls answer it: the stored fields and its counts. */
export type DescribedBucket = StoredBucket & {
  used: number;
  available: number;
  totalProjects: number;
};

export const attachedOf = (bucket: StoredBucket) =>
  bucket.attachments.reduce((sum, attachment) => sum + attachment.licenses, 0);

/** Licenses gone from the bucket: attached to deployments or given to its splits. */
export const usedOf = (bucket: StoredBucket) => attachedOf(bucket) + bucket.splitOff;

export const availableOf = (bucket: StoredBucket) => bucket.size - usedOf(bucket);

/** `attachments` with `licenses` more for `deployment`. */
export function plus(attachments: Attachment[], deployment: string, licenses: number) {
  const others = attachments.filter((attachment) => attachment.deployment !== deployment);
  const current = attachments.find((attachment) => attachment.deployment === deployment);
  return [...others, { deployment, licenses: (current?.licenses ?? 0) + licenses }];
}

/** `attachments` with every entry of `more` added. */
export const merged = (attachments: Attachment[], more: Attachment[]) =>
  more.reduce((list, entry) => plus(list, entry.deployment, entry.licenses), attachments);

/** The bucket as it is written: the most licenses ever out of it kept up to date. */
export const withMaxUsed = (bucket: StoredBucket): StoredBucket => ({
  ...bucket,
  maxUsed: Math.max(bucket.maxUsed, usedOf(bucket)),
});

/** Today as bucket dates are written (`YYYY-MM-DD`, UTC). */
export const today = () => new Date().toISOString().slice(0, 10);
