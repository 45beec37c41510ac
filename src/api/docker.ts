import type { DockerImageView } from '../../server/formats/docker/image-view.ts';
import { call } from './client';

export type { DockerImageView };

/** A tag's manifest as the DockerV2Info view answers it, with the command that pulls it. */
export type DockerImageInfo = DockerImageView & { pullCommand: string };

/** The Docker calls of the tree and the package browser (docs/docker.md, "In the console"). */
export const dockerApi = {
  /** A tag folder or its manifest file, by repository key and path (spec 02 §7). */
  imageView: (repoKey: string, path: string) =>
    call<DockerImageInfo>('POST', '/ui/views/dockerv2', {
      json: { repoKey, path, view: 'dockerv2' },
    }),
};
