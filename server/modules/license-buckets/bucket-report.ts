import { attachedOf, type DescribedBucket, type StoredBucket } from './bucket-counts.ts';
import type { Deployment } from './deployments.ts';

/**
 * The bucket report (spec 01 §2, "Report"): its counts, the deployments Depot knows with the
 * licenses each holds from it, and its splits.
 */
export function bucketReport(
  bucket: DescribedBucket,
  known: Deployment[],
  splits: DescribedBucket[],
) {
  const licensesOn = (deployment: string) =>
    bucket.attachments.find((attachment) => attachment.deployment === deployment)?.licenses ?? 0;
  const unknown: StoredBucket = {
    ...bucket,
    attachments: bucket.attachments.filter(
      (attachment) => !known.some((deployment) => deployment.id === attachment.deployment),
    ),
  };
  return {
    ...bucket,
    totalLicenses: bucket.size,
    maxConsumed: bucket.maxUsed,
    // Licenses counted out to deployments Depot no longer knows.
    unknownUsage: attachedOf(unknown),
    // Depot runs no pipelines service, so no pipelines node holds a license.
    pipelinesNodes: 0,
    deployments: known.map((deployment) => ({
      ...deployment,
      licenses: licensesOn(deployment.id),
    })),
    splits,
  };
}
