import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DepotDatabase } from '../../db/tables.ts';
import { NotFound } from '../../errors.ts';
import { auditEntry } from '../entities/audit.ts';
import type { EntityDocument } from '../entities/documents.ts';
import type { Actor } from '../entities/hooks.ts';
import { deleteDocuments, insertAudit, insertDocument } from '../entities/queries.ts';
import { withMaxUsed, type StoredBucket } from './bucket-counts.ts';
import { LICENSE_BUCKET_MESSAGES as M } from './messages.ts';
import { BUCKET_ENTITY, findBucketDocument, patchBucketDocument } from './queries.ts';

/** The sealed field of a bucket document, masked in the audit trail. */
const SECRETS = ['signedFile'];

/** What one transaction may do to buckets; each write comes with its audit entry. */
export interface BucketWrites {
  /** Locks bucket `id`, applies `edit` to it and writes the result. */
  change(id: string, edit: (bucket: StoredBucket) => StoredBucket): Promise<StoredBucket>;
  create(bucket: StoredBucket): Promise<void>;
  remove(bucket: StoredBucket): Promise<void>;
}

const asDocument = (bucket: StoredBucket) => bucket as unknown as EntityDocument;

function writesIn(tx: Transaction<DepotDatabase>, actor: Actor): BucketWrites {
  const audited = (key: string, before?: StoredBucket, after?: StoredBucket) =>
    auditEntry(
      { entity: BUCKET_ENTITY, key, actor },
      SECRETS,
      before && asDocument(before),
      after && asDocument(after),
    );
  return {
    async change(id, edit) {
      const before = (await findBucketDocument(tx, id, true)) as StoredBucket | undefined;
      if (!before) throw new NotFound(M.notFound(id));
      const after = withMaxUsed(edit(before));
      await patchBucketDocument(tx, id, asDocument(after));
      await insertAudit(tx, [audited(id, before, after)]);
      return after;
    },
    async create(bucket) {
      const id = bucket.identifier;
      await insertDocument(tx, BUCKET_ENTITY, id, id, asDocument(bucket));
      await insertAudit(tx, [audited(id, undefined, bucket)]);
    },
    async remove(bucket) {
      await deleteDocuments(tx, BUCKET_ENTITY, [bucket.identifier]);
      await insertAudit(tx, [audited(bucket.identifier, bucket, undefined)]);
    },
  };
}

/**
 * Runs `work` in one transaction: every bucket it changes (a parent and its split) is
 * written, with its audit entries, or none is. A bucket it changes stays locked until the
 * end, so two changes at once never decide from the same counts.
 */
export const writeBuckets = <T>(
  db: Database,
  actor: Actor,
  work: (writes: BucketWrites) => Promise<T>,
): Promise<T> => db.transaction().execute((tx) => work(writesIn(tx, actor)));
