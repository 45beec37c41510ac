import { RegistryError } from './protocol-errors.ts';
import { isDigest } from './names.ts';

export const MEDIA_TYPES = {
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
} as const;

/** Docker's schema 1 (signed and unsigned): refused, see `refuseSchema1`. */
const SCHEMA1_TYPES: ReadonlySet<string> = new Set([
  'application/vnd.docker.distribution.manifest.v1+prettyjws',
  'application/vnd.docker.distribution.manifest.v1+json',
]);

const IMAGE_TYPES: ReadonlySet<string> = new Set([
  MEDIA_TYPES.dockerManifest,
  MEDIA_TYPES.ociManifest,
]);
const INDEX_TYPES: ReadonlySet<string> = new Set([MEDIA_TYPES.dockerList, MEDIA_TYPES.ociIndex]);

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
  urls?: string[];
}

/** What a manifest says that the registry must check and remember. */
export interface ParsedManifest {
  mediaType: string;
  kind: 'image' | 'index';
  /** Blobs it needs in the repository: an image's config and layers. */
  blobs: Descriptor[];
  /** Manifests it needs in the repository: an index's entries. */
  manifests: Descriptor[];
  subject?: Descriptor;
  /** The OCI 1.1 artifact type: its own, else its config's media type (for the referrers API). */
  artifactType?: string;
  annotations?: Record<string, string>;
}

const invalid = (message: string) => new RegistryError('MANIFEST_INVALID', message);

function descriptor(value: unknown, where: string): Descriptor {
  const d = value as Partial<Descriptor> | null;
  if (typeof d !== 'object' || d === null) throw invalid(`${where} is not a descriptor`);
  if (typeof d.mediaType !== 'string' || d.mediaType === '')
    throw invalid(`${where} has no mediaType`);
  if (typeof d.digest !== 'string' || !isDigest(d.digest))
    throw invalid(`${where} has no valid digest`);
  if (typeof d.size !== 'number' || !Number.isSafeInteger(d.size) || d.size < 0)
    throw invalid(`${where} has no valid size`);
  return d as Descriptor;
}

function descriptors(value: unknown, where: string): Descriptor[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(`${where} is not a list`);
  return value.map((item, i) => descriptor(item, `${where}[${i}]`));
}

/**
 * Docker schema 1 manifests are refused (docs/docker.md, "Schema 1"): Docker deprecated them
 * in 2017 and its registries no longer take them, their digest is not that of the bytes sent
 * (the signatures are left out) and clients sign them with a key made for the one push, so the
 * signature proves nothing. Every client that writes one also writes schema 2 or OCI.
 */
const schema1Refused = () =>
  invalid(
    'Docker schema 1 manifests are not accepted: push the image as a Docker schema 2 or OCI ' +
      'manifest (skopeo copy --format v2s2 or --format oci; docker and podman do by default)',
  );

/**
 * Reads a manifest as pushed: Docker schema 2 manifests and manifest lists, OCI image
 * manifests and indexes, with any artifact type. The media type is the one the client
 * sent as Content-Type; one written in the document must agree with it.
 */
export function parseManifest(bytes: Buffer, contentType: string | undefined): ParsedManifest {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw invalid('The manifest is not JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw invalid('The manifest is not a JSON object');
  const declared = typeof doc.mediaType === 'string' ? doc.mediaType : undefined;
  const sent = contentType?.split(';')[0].trim() || undefined;
  if (declared && sent && declared !== sent)
    throw invalid(`The manifest says it is ${declared} but was sent as ${sent}`);
  const mediaType =
    declared ?? sent ?? (doc.manifests ? MEDIA_TYPES.ociIndex : MEDIA_TYPES.ociManifest);
  if (doc.schemaVersion === 1 || SCHEMA1_TYPES.has(mediaType)) throw schema1Refused();
  if (doc.schemaVersion !== 2) throw invalid('Only schemaVersion 2 manifests are supported');
  const subject = doc.subject === undefined ? undefined : descriptor(doc.subject, 'subject');
  const annotations = doc.annotations as Record<string, string> | undefined;
  const ownArtifactType = typeof doc.artifactType === 'string' ? doc.artifactType : undefined;
  if (INDEX_TYPES.has(mediaType)) {
    return {
      mediaType,
      kind: 'index',
      blobs: [],
      manifests: descriptors(doc.manifests, 'manifests'),
      subject,
      artifactType: ownArtifactType,
      annotations,
    };
  }
  if (!IMAGE_TYPES.has(mediaType)) throw invalid(`Unsupported manifest media type ${mediaType}`);
  const config = descriptor(doc.config, 'config');
  const layers = descriptors(doc.layers, 'layers');
  return {
    mediaType,
    kind: 'image',
    // A layer with `urls` is non-distributable: it lives elsewhere, never pushed here.
    blobs: [config, ...layers.filter((layer) => !layer.urls?.length)],
    manifests: [],
    subject,
    artifactType: ownArtifactType ?? (subject ? config.mediaType : undefined),
    annotations,
  };
}

/** The file a manifest is kept as in its folder, as Artifactory names them. */
export const manifestFileName = (kind: ParsedManifest['kind']) =>
  kind === 'index' ? 'list.manifest.json' : 'manifest.json';

export const MANIFEST_FILE_NAMES = ['manifest.json', 'list.manifest.json'];
