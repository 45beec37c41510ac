import type { DeployArchiveType } from '../archives/archive-reader.ts';

/** Java archives are zips by another name. */
const ZIP_LIKE = ['.zip', '.jar', '.war', '.ear', '.aar'];

/** How a file's entries are read, by its name (any case), or undefined for no archive. */
export function viewableArchiveType(fileName: string): DeployArchiveType | undefined {
  const name = fileName.toLowerCase();
  if (ZIP_LIKE.some((extension) => name.endsWith(extension))) return 'zip';
  if (name.endsWith('.tar')) return 'tar';
  if (name.endsWith('.tgz') || name.endsWith('.tar.gz')) return 'tgz';
  return undefined;
}
