import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import { BadRequest, Conflict, NotFound } from '../../errors.ts';
import type { JsonSchema } from '../../schemas/registry.ts';
import { createCollectionStore, type StoredCollection } from '../entities/collection-store.ts';
import { deepMerge, documentDefaults, type EntityDocument } from '../entities/documents.ts';
import type { Actor } from '../entities/hooks.ts';
import { answerOf, openSecrets } from '../entities/secrets.ts';
import {
  attachedOf,
  availableOf,
  merged,
  today,
  usedOf,
  type Attachment,
  type DescribedBucket,
  type StoredBucket,
} from './bucket-counts.ts';
import { bucketReport } from './bucket-report.ts';
import type { OutboundProxy } from '../proxies/service.ts';
import { bucketFromSource, type BucketSource } from './bucket-source.ts';
import { writeBuckets } from './bucket-writes.ts';
import { attachableDeployment, knownDeployments, type Deployment } from './deployments.ts';
import { LICENSE_BUCKET_MESSAGES as M } from './messages.ts';
import { bucketNameTaken, findBucketDocument, listBucketDocuments } from './queries.ts';

export type { BucketSource, DescribedBucket, StoredBucket };

/** The engine keeps the documents: unique identifiers, audit, the sealed file. */
const BUCKETS: StoredCollection = {
  entity: 'license-bucket',
  key: 'identifier',
  store: {
    kind: 'collection',
    messages: {
      exists: "Bucket '{identifier}' was already added",
      notFound: "License bucket '{identifier}' could not be found.",
    },
  },
};

/**
 * License buckets (spec 01 §2, docs/license-buckets.md): what they do beyond keeping
 * documents. Adding verifies a signed file; a split takes licenses from its parent and a
 * deleted split gives them back, each in one transaction; attaching and detaching count
 * licenses out to deployments and back.
 */
export function createLicenseBucketsService(options: {
  db: Database;
  box: SecretBox;
  entity: JsonSchema;
  publicKeyPem: string | undefined;
  serverName: string;
  allowList: () => Promise<string[]>;
  /** The default proxy, when it serves license buckets (docs/proxies.md). */
  proxy: () => Promise<OutboundProxy | undefined>;
  projectCount: () => Promise<number>;
}) {
  const { db, box, entity } = options;
  const store = createCollectionStore({ ...options, screen: BUCKETS, hooks: () => ({}) });
  const deployments = (): Deployment[] => knownDeployments(options.serverName);
  const defaults = documentDefaults(entity);
  const asBucket = (document: EntityDocument) =>
    answerOf(entity, ['signedFile'], deepMerge(defaults, document)) as unknown as StoredBucket;

  async function read(id: string): Promise<StoredBucket> {
    const document = await findBucketDocument(db, id);
    if (!document) throw new NotFound(M.notFound(id));
    return asBucket(document);
  }
  const splitsOf = async (id: string) => (await listBucketDocuments(db, id)).map(asBucket);

  async function described(bucket: StoredBucket): Promise<DescribedBucket> {
    const used = usedOf(bucket);
    return {
      ...bucket,
      used,
      available: bucket.size - used,
      // The projects of the deployments it licenses: this Depot's, once attached to it.
      totalProjects: attachedOf(bucket) > 0 ? await options.projectCount() : 0,
    };
  }

  async function refuseTakenName(name: string) {
    if (await bucketNameTaken(db, name)) throw new Conflict(M.nameExists(name), 'name');
  }

  return {
    async list(): Promise<DescribedBucket[]> {
      return Promise.all((await listBucketDocuments(db)).map(asBucket).map(described));
    },

    get: async (id: string) => described(await read(id)),

    /** Adds the bucket a signed file grants; nothing is kept unless every check passed. */
    async add(name: string, source: BucketSource, actor: Actor) {
      await refuseTakenName(name);
      const { bucket, signedFile } = await bucketFromSource(name, source, options);
      const created = await store.create({ ...bucket, signedFile }, actor);
      return described(created.document as unknown as StoredBucket);
    },

    /** A new bucket of `licenses` taken from `id`'s available ones, in one transaction. */
    async split(id: string, name: string, licenses: number, actor: Actor) {
      if ((await read(id)).parent) throw new BadRequest(M.splitOfSplit);
      await refuseTakenName(name);
      const splitId = `${id}.${name}`;
      if (await store.exists(splitId)) throw new Conflict(M.nameExists(name), 'name');
      const split = await writeBuckets(db, actor, async (writes) => {
        const parent = await writes.change(id, (bucket) => {
          if (licenses > availableOf(bucket)) throw new BadRequest(M.tooHigh, 'licenses');
          return { ...bucket, splitOff: bucket.splitOff + licenses };
        });
        const created: StoredBucket = {
          ...parent,
          identifier: splitId,
          name,
          size: licenses,
          splitOff: 0,
          maxUsed: 0,
          attachments: [],
          parent: parent.identifier,
        };
        delete created.url; // the parent's lasting address is not the split's
        await writes.create(created);
        return created;
      });
      return described(split);
    },

    /** Counts licenses out to deployments, all or none. */
    async attach(id: string, wanted: Attachment[], actor: Actor) {
      const targets = wanted.map((entry) => attachableDeployment(deployments(), entry.deployment));
      const bucket = await writeBuckets(db, actor, (writes) =>
        writes.change(id, (current) => {
          if (current.expiryDate < today()) throw new BadRequest(M.expired(current.expiryDate));
          const total = wanted.reduce((sum, entry) => sum + entry.licenses, 0);
          if (total > availableOf(current)) throw new BadRequest(M.overAvailable, 'licenses');
          return { ...current, attachments: merged(current.attachments, wanted) };
        }),
      );
      return { bucket: await described(bucket), deployments: targets };
    },

    /**
     * Takes back every license the bucket counted out to these deployments (known or not:
     * licenses on a deployment Depot no longer knows come back the same way).
     */
    async detach(id: string, from: string[], actor: Actor) {
      let count = 0;
      const bucket = await writeBuckets(db, actor, (writes) =>
        writes.change(id, (current) => {
          const detached = current.attachments.filter((a) => from.includes(a.deployment));
          const missing = from.find((d) => !detached.some((a) => a.deployment === d));
          if (missing !== undefined)
            throw new BadRequest(M.notAttached(current.name, missing), 'deployments');
          count = detached.reduce((sum, attachment) => sum + attachment.licenses, 0);
          const attachments = current.attachments.filter((a) => !from.includes(a.deployment));
          return { ...current, attachments };
        }),
      );
      const names = from.map((d) => deployments().find((known) => known.id === d)?.name ?? d);
      return { bucket: await described(bucket), count, names };
    },

    /** The bucket report (spec 01 §2, "Report"). */
    async report(id: string) {
      const bucket = await described(await read(id));
      const splits = await Promise.all((await splitsOf(id)).map(described));
      return bucketReport(bucket, deployments(), splits);
    },

    /** The signed file the bucket was added from, as it was added. */
    async download(id: string) {
      const stored = await store.stored(id);
      if (stored.parent) throw new BadRequest(M.noFile(String(stored.parent)));
      const opened = openSecrets(['signedFile'], stored, box);
      return { filename: `${id}.json`, bytes: Buffer.from(String(opened.signedFile), 'utf8') };
    },

    /** A parent goes with its splits; a split gives its licenses back to its parent. */
    async remove(id: string, actor: Actor) {
      const bucket = await read(id);
      if (!bucket.parent) {
        const splits = await splitsOf(id);
        await store.deleteMany([id, ...splits.map((split) => split.identifier)], actor);
        return;
      }
      await writeBuckets(db, actor, async (writes) => {
        await writes.remove(bucket);
        // Deployments keep the licenses they had from the split, now counted on the parent.
        await writes.change(bucket.parent!, (parent) => ({
          ...parent,
          splitOff: parent.splitOff - bucket.size,
          attachments: merged(parent.attachments, bucket.attachments),
        }));
      });
    },
  };
}

export type LicenseBucketsService = ReturnType<typeof createLicenseBucketsService>;
