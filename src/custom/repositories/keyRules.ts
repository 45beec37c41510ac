import type { RepoKind } from '../../api/repositories';
import { REPO_KEY_MESSAGES } from './messages';

/**
 * The key rules the console checks as the admin types (spec 03 §5), in the order the server
 * checks them, so both give the same first message; the server's validatereponame adds
 * what only it knows (a key in use, reserved names).
 */
export function repoKeyError(key: string, kind: RepoKind, packageType: string): string | undefined {
  if (key === '') return REPO_KEY_MESSAGES.required;
  if (/^[0-9]/.test(key)) return REPO_KEY_MESSAGES.startsWithNumber;
  if (!/^[A-Za-z0-9._-]+$/.test(key)) return REPO_KEY_MESSAGES.illegalCharacters;
  if (packageType === 'docker' && key !== key.toLowerCase())
    return REPO_KEY_MESSAGES.dockerLowercase;
  if (kind === 'local' && key.toLowerCase().endsWith('-cache'))
    return REPO_KEY_MESSAGES.localCacheSuffix;
  return undefined;
}
