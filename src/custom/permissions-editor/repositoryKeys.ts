import type { RepoChoice } from '../../api/permissions';

/** A remote repository's cache is what a target names (spec 01 §3: "-cache" added on save). */
const CACHE_SUFFIX = '-cache';
/** Spec 01 §3: the repositories list excludes the _intransit repository. */
const isInTransit = (key: string) => key.endsWith('_intransit');

/**
 * The repository key a target names, as the repositories list shows it: the server stores a
 * remote repository as its cache (`npm-remote-cache`), the list offers `npm-remote`.
 */
export function asListed(key: string, choices: RepoChoice[]): string {
  if (!key.endsWith(CACHE_SUFFIX) || choices.some((choice) => choice.repoKey === key)) return key;
  const owner = key.slice(0, -CACHE_SUFFIX.length);
  const remote = choices.find((choice) => choice.repoKey === owner && choice.repoType === 'remote');
  return remote ? owner : key;
}

/**
 * The repositories the Repositories section lists: the choices without the _intransit one,
 * and any the form names that the choices lack (a target may name one the caller is not
 * offered), so that every named one can be seen and unchecked.
 */
export function listedRepositories(choices: RepoChoice[], named: string[]): string[] {
  const keys = choices.map((choice) => choice.repoKey).filter((key) => !isInTransit(key));
  return [...keys, ...named.filter((key) => !keys.includes(key) && !isInTransit(key))];
}
