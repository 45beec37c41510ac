/**
 * Environments (docs/projects.md): a repository sits in one or more of them, and a project
 * role's repository actions hold only on repositories in the role's environments, so a
 * Developer may deploy to DEV repositories and only read PROD ones. JFrog's two global
 * environments; custom ones are not offered.
 */
export const ENVIRONMENTS = ['DEV', 'PROD'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Where a repository sits when nobody said: JFrog's default for a project repository. */
export const DEFAULT_REPOSITORY_ENVIRONMENTS: Environment[] = ['DEV'];

export const isEnvironment = (name: string): name is Environment =>
  (ENVIRONMENTS as readonly string[]).includes(name);

export const unknownEnvironment = (name: string) =>
  `Environment '${name}' does not exist; the environments are ${ENVIRONMENTS.join(' and ')}`;
