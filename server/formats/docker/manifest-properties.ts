import type { ParsedManifest } from './manifests.ts';
import { isTag } from './names.ts';

/** The properties Artifactory sets on a manifest file (docs/docker.md, "Storage"). */
export function dockerProperties(
  image: string,
  reference: string,
  digest: string,
  parsed: ParsedManifest,
) {
  return {
    'docker.repoName': [image],
    'docker.manifest': [isTag(reference) ? reference : digest],
    'docker.manifest.digest': [digest],
    'docker.manifest.type': [parsed.kind === 'index' ? 'ManifestList' : 'ManifestV2'],
    sha256: [digest.slice('sha256:'.length)],
  };
}
