import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Database } from '../../db/database.ts';
import { BadRequest, Conflict, PreconditionFailed } from '../../errors.ts';
import type { JsonSchema } from '../../schemas/registry.ts';
import { createCollectionStore, type StoredCollection } from '../entities/collection-store.ts';
import type { EntityDocument } from '../entities/documents.ts';
import type { Actor } from '../entities/hooks.ts';
import type { ListQuery } from '../entities/queries.ts';
import { openSecrets } from '../entities/secrets.ts';
import { checkBucketKey, verifyBucketFile } from './bucket-file.ts';
import { attachableDeployment, knownDeployments, type Deployment } from './deployments.ts';
import { fetchBucketFile } from './fetch-bucket-file.ts';
import { LICENSE_BUCKET_MESSAGES as M } from './messages.ts';

/** A bucket as stored (schemas/entities/license-bucket.schema.json). */
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
  attachments: { deployment: string; licenses: number }[];
  parent?: string;
  url?: string;
}

/** What an add brings: a file's bytes, or the URLs and key of one to fetch. */
/** A bucket as calls answer it: the stored fields and its counts. */
export type DescribedBucket = StoredBucket & {
  used: number;
  available: number;
  totalProjects: number;
};

export type BucketSource =
  { file: Buffer; key?: string } | { url: string; signedUrl: string; key: string };

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

const attachedOf = (bucket: StoredBucket) =>
  bucket.attachments.reduce((sum, attachment) => sum + attachment.licenses, 0);
/** Licenses gone from the bucket: attached to deployments or given to its splits. */
const usedOf = (bucket: StoredBucket) => attachedOf(bucket) + bucket.splitOff;
const today = () => new Date().toISOString().slice(0, 10);

/** `attachments` with `licenses` more for `deployment`. */
function plus(attachments: StoredBucket['attachments'], deployment: string, licenses: number) {
  const others = attachments.filter((attachment) => attachment.deployment !== deployment);
  const current = attachments.find((attachment) => attachment.deployment === deployment);
  return [...others, { deployment, licenses: (current?.licenses ?? 0) + licenses }];
}

/**
 * License buckets (spec 01 §2, docs/license-buckets.md): what they do beyond keeping
 * documents. Adding verifies a signed file; a split takes licenses from its parent and a
 * deleted split gives them back; attaching counts licenses out to deployments.
 */
export function createLicenseBucketsService(options: {
  db: Database;
  box: SecretBox;
  entity: JsonSchema;
  publicKeyPem: string | undefined;
  serverName: string;
  allowList: () => Promise<string[]>;
  projectCount: () => Promise<number>;
}) {
  const { box, publicKeyPem } = options;
  const store = createCollectionStore({ ...options, screen: BUCKETS, hooks: () => ({}) });
  const deployments = (): Deployment[] => knownDeployments(options.serverName);

  const read = async (id: string) => (await store.get(id)).document as unknown as StoredBucket;
  const splitsOf = async (id: string) =>
    (await store.list({ offset: 0, descending: false, equals: { parent: id } }))
      .items as unknown as StoredBucket[];

  async function described(bucket: StoredBucket): Promise<DescribedBucket> {
    const used = usedOf(bucket);
    const attached = attachedOf(bucket);
    return {
      ...bucket,
      used,
      available: bucket.size - used,
      // The projects of the deployments it licenses: this Depot's, once attached to it.
      totalProjects: attached > 0 ? await options.projectCount() : 0,
    };
  }

  /**
   * Applies `edit` to the bucket as stored, written only if nobody changed it meanwhile
   * (the engine's If-Match); a concurrent change makes it read and decide again.
   */
  async function change(id: string, actor: Actor, edit: (bucket: StoredBucket) => StoredBucket) {
    for (let attempt = 1; ; attempt++) {
      const { document, etag } = await store.get(id);
      const next = edit(document as unknown as StoredBucket);
      const maxUsed = Math.max(next.maxUsed, usedOf(next));
      try {
        const written = await store.update(
          id,
          { ...next, maxUsed } as unknown as EntityDocument,
          actor,
          etag,
        );
        return written.document as unknown as StoredBucket;
      } catch (error) {
        if (!(error instanceof PreconditionFailed) || attempt >= 5) throw error;
      }
    }
  }

  async function refuseTakenName(name: string) {
    const { total } = await store.list({
      offset: 0,
      limit: 1,
      descending: false,
      equals: { name },
    });
    if (total > 0) throw new Conflict(M.nameExists(name), 'name');
  }

  return {
    async list(query: Omit<ListQuery, 'equals'>) {
      const { items, total } = await store.list({ ...query, equals: {} });
      const buckets = await Promise.all(
        items.map((item) => described(item as unknown as StoredBucket)),
      );
      return { buckets, total };
    },

    get: async (id: string) => described(await read(id)),

    /** Adds the bucket a signed file grants; nothing is kept unless every check passed. */
    async add(name: string, source: BucketSource, actor: Actor) {
      await refuseTakenName(name);
      const bytes =
        'file' in source
          ? source.file
          : await fetchBucketFile(source.signedUrl, await options.allowList());
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw new BadRequest(M.notJson, 'file');
      }
      const grant = verifyBucketFile(text, publicKeyPem, today());
      if (source.key !== undefined) checkBucketKey(grant, source.key);
      const bucket: StoredBucket = {
        identifier: grant.identifier,
        name,
        licenseType: grant.licenseType,
        customerName: grant.customerName,
        issueDate: grant.issueDate,
        expiryDate: grant.expiryDate,
        size: grant.quantity,
        splitOff: 0,
        maxUsed: 0,
        attachments: [],
        ...('url' in source ? { url: source.url } : {}),
      };
      const created = await store.create({ ...bucket, signedFile: text }, actor);
      return described(created.document as unknown as StoredBucket);
    },

    /** A new bucket of `licenses` taken from `id`'s available ones. */
    async split(id: string, name: string, licenses: number, actor: Actor) {
      const source = await read(id);
      if (source.parent) throw new BadRequest(M.splitOfSplit);
      await refuseTakenName(name);
      const splitId = `${source.identifier}.${name}`;
      if (await store.exists(splitId)) throw new Conflict(M.nameExists(name), 'name');
      // The parent gives the licenses first: a failure after it loses none to a second owner.
      const parent = await change(id, actor, (bucket) => {
        if (licenses > bucket.size - usedOf(bucket)) throw new BadRequest(M.tooHigh, 'licenses');
        return { ...bucket, splitOff: bucket.splitOff + licenses };
      });
      const split: StoredBucket = {
        ...parent,
        identifier: splitId,
        name,
        size: licenses,
        splitOff: 0,
        maxUsed: 0,
        attachments: [],
        parent: parent.identifier,
      };
      delete split.url;
      try {
        return described(
          (await store.create(split as unknown as EntityDocument, actor))
            .document as unknown as StoredBucket,
        );
      } catch (error) {
        await change(id, actor, (bucket) => ({ ...bucket, splitOff: bucket.splitOff - licenses }));
        throw error;
      }
    },

    /** Counts licenses out to deployments, all or none. */
    async attach(id: string, wanted: { deployment: string; licenses: number }[], actor: Actor) {
      const targets = wanted.map((entry) => attachableDeployment(deployments(), entry.deployment));
      const bucket = await change(id, actor, (current) => {
        if (current.expiryDate < today()) throw new BadRequest(M.expired(current.expiryDate));
        const total = wanted.reduce((sum, entry) => sum + entry.licenses, 0);
        if (total > current.size - usedOf(current))
          throw new BadRequest(M.overAvailable, 'licenses');
        const attachments = wanted.reduce(
          (list, entry) => plus(list, entry.deployment, entry.licenses),
          current.attachments,
        );
        return { ...current, attachments };
      });
      return { bucket: await described(bucket), deployments: targets };
    },

    /** The bucket report (spec 01 §2, "Report"). */
    async report(id: string) {
      const bucket = await read(id);
      const known = deployments();
      const splits = await splitsOf(id);
      const licensesOn = (deployment: string) =>
        bucket.attachments.find((attachment) => attachment.deployment === deployment)?.licenses ??
        0;
      return {
        ...(await described(bucket)),
        totalLicenses: bucket.size,
        maxConsumed: bucket.maxUsed,
        // Licenses counted out to deployments Depot no longer knows.
        unknownUsage: bucket.attachments
          .filter(
            (attachment) => !known.some((deployment) => deployment.id === attachment.deployment),
          )
          .reduce((sum, attachment) => sum + attachment.licenses, 0),
        // Depot runs no pipelines service, so no pipelines node holds a license.
        pipelinesNodes: 0,
        deployments: known.map((deployment) => ({
          ...deployment,
          licenses: licensesOn(deployment.id),
        })),
        splits: await Promise.all(splits.map(described)),
      };
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
      // Deleted first: a failure before the parent is told loses licenses, never doubles them.
      await store.deleteMany([id], actor);
      await change(bucket.parent, actor, (parent) => ({
        ...parent,
        splitOff: parent.splitOff - bucket.size,
        // Deployments keep the licenses they had from the split, now counted on the parent.
        attachments: bucket.attachments.reduce(
          (list, entry) => plus(list, entry.deployment, entry.licenses),
          parent.attachments,
        ),
      }));
    },
  };
}

export type LicenseBucketsService = ReturnType<typeof createLicenseBucketsService>;
