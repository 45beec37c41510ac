import type { ArtifactsService } from '../artifacts/service.ts';
import type { LocatedNode } from '../tree-browser/locate-node.ts';
import { pomPathFor } from './view-rules.ts';

/**
 * Whether a file has a POM for the PomView tab to show: a .pom file has itself; a jar or war
 * of a maven-like repository has the .pom of its base name beside it, in the repository it
 * was found in. One indexed lookup, for jars and wars only.
 */
export async function hasPom(artifacts: ArtifactsService, located: LocatedNode): Promise<boolean> {
  if (located.type !== 'file') return false;
  const pomPath = pomPathFor(located.path, located.repo.package_type);
  if (pomPath === undefined || pomPath === located.path) return pomPath !== undefined;
  const pom = await artifacts.findNode(located.source!.id, pomPath);
  return pom !== undefined && !pom.folder;
}
