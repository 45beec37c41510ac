import { BadRequest, NotFound } from '../../errors.ts';
import { locateNode, type LocatedNode } from '../../modules/tree-browser/locate-node.ts';
import type { Services } from '../../services.ts';
import { MANIFEST_FILE_NAMES, parseManifest } from './manifests.ts';
import { contentHex } from './digests.ts';

/** One layer of an image, with the command that made it when its config's history says. */
export interface ImageLayer {
  digest: string;
  size: number;
  mediaType: string;
  command?: string;
}

/** One platform of an index: the manifest it points to and what it runs on. */
export interface IndexPlatform {
  digest: string;
  size: number;
  mediaType: string;
  os?: string;
  architecture?: string;
  variant?: string;
}

/** The DockerV2Info tab's answer (docs/docker.md, "In the console"). */
export interface DockerImageView {
  repoKey: string;
  image: string;
  tag: string;
  digest: string;
  mediaType: string;
  kind: 'image' | 'index';
  /** An image: its config and layers; an index: the manifests it lists. */
  totalSize: number;
  layers: ImageLayer[];
  labels: Record<string, string>;
  os?: string;
  architecture?: string;
  platforms: IndexPlatform[];
}

interface ImageConfig {
  os?: unknown;
  architecture?: unknown;
  config?: { Labels?: unknown };
  history?: { created_by?: unknown; empty_layer?: unknown }[];
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The commands of the layers, in order: history entries marked `empty_layer` made none
 * (ENV, LABEL...), so the others line up with the layers one for one. A history that does
 * not line up names no command rather than a wrong one.
 */
function layerCommands(
  config: ImageConfig | undefined,
  layerCount: number,
): (string | undefined)[] {
  const made = (config?.history ?? []).filter((entry) => entry?.empty_layer !== true);
  if (made.length !== layerCount) return [];
  return made.map((entry) => text(entry.created_by));
}

function labelsOf(config: ImageConfig | undefined): Record<string, string> {
  const labels = config?.config?.Labels;
  if (typeof labels !== 'object' || labels === null) return {};
  return Object.fromEntries(
    Object.entries(labels).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** The DockerV2Info view of a tag folder or its manifest file. */
export function createDockerImageView(services: Services) {
  const { artifacts, filestore, db } = services;

  /** The manifest file a node is, or the one its folder holds. */
  async function manifestNode(located: LocatedNode): Promise<LocatedNode | undefined> {
    const name = located.path.slice(located.path.lastIndexOf('/') + 1);
    if (located.type === 'file') return MANIFEST_FILE_NAMES.includes(name) ? located : undefined;
    if (located.type !== 'folder') return undefined;
    for (const file of MANIFEST_FILE_NAMES) {
      const found = await locateNode(artifacts, located.repo.key, `${located.path}/${file}`).catch(
        (error: unknown) => {
          if (error instanceof NotFound) return undefined;
          throw error;
        },
      );
      if (found?.type === 'file') return found;
    }
    return undefined;
  }

  /**
   * A small blob's JSON (by a `sha256:` or `sha512:` digest), or undefined when it is not
   * stored here (a remote not yet cached).
   */
  async function readConfig(digest: string, size: number): Promise<ImageConfig | undefined> {
    if (!filestore.isSmall(size)) return undefined;
    try {
      const hex = await contentHex(db, digest);
      if (!hex) return undefined;
      const parsed: unknown = JSON.parse((await filestore.readSmall(hex)).toString('utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as ImageConfig) : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    async view(repoKey: string, path: string): Promise<DockerImageView> {
      const located = await locateNode(artifacts, repoKey, path);
      const where = `${located.repo.key}/${located.path}`;
      const manifest =
        located.repo.package_type === 'docker' ? await manifestNode(located) : undefined;
      if (!manifest?.node?.sha256)
        throw new BadRequest(`${where} is not a Docker tag or its manifest`);
      const bytes = await filestore.readSmall(manifest.node.sha256);
      const parsed = parseManifest(bytes, undefined);
      const folder = manifest.path.slice(0, manifest.path.lastIndexOf('/'));
      const slash = folder.lastIndexOf('/');
      const base = {
        repoKey: located.repo.key,
        image: folder.slice(0, slash),
        tag: folder.slice(slash + 1),
        digest: `sha256:${manifest.node.sha256}`,
        mediaType: parsed.mediaType,
        kind: parsed.kind,
      };
      if (parsed.kind === 'index') {
        const doc = JSON.parse(bytes.toString('utf8')) as {
          manifests: { platform?: Record<string, unknown> }[];
        };
        const platforms = parsed.manifests.map((entry, i) => ({
          digest: entry.digest,
          size: entry.size,
          mediaType: entry.mediaType,
          os: text(doc.manifests[i]?.platform?.os),
          architecture: text(doc.manifests[i]?.platform?.architecture),
          variant: text(doc.manifests[i]?.platform?.variant),
        }));
        const totalSize = platforms.reduce((sum, entry) => sum + entry.size, 0);
        return { ...base, totalSize, layers: [], labels: {}, platforms };
      }
      const doc = JSON.parse(bytes.toString('utf8')) as {
        config: { digest: string; size: number };
        layers?: { digest: string; size: number; mediaType: string }[];
      };
      const layers = doc.layers ?? [];
      const config = await readConfig(doc.config.digest, doc.config.size);
      const commands = layerCommands(config, layers.length);
      return {
        ...base,
        totalSize: layers.reduce((sum, layer) => sum + layer.size, doc.config.size),
        layers: layers.map((layer, i) => ({
          digest: layer.digest,
          size: layer.size,
          mediaType: layer.mediaType,
          ...(commands[i] !== undefined ? { command: commands[i] } : {}),
        })),
        labels: labelsOf(config),
        os: text(config?.os),
        architecture: text(config?.architecture),
        platforms: [],
      };
    },
  };
}

export type DockerImageViews = ReturnType<typeof createDockerImageView>;
