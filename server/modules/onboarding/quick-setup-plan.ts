/**
 * What the quick setup creates (docs/onboarding.md), as a pure function the console shows
 * before the call and the server creates: for each package type, a local repository, a
 * remote one on the type's upstream, and a virtual one that aggregates both and deploys to
 * the local one. Keys are `{prefix}-{type}-local`, `-remote` and `-virtual`.
 */
export interface QuickSetupChoice {
  packageType: string;
  /** The remote repository's upstream. */
  upstreamUrl?: string;
}

export interface PlannedRepository {
  key: string;
  rclass: 'local' | 'remote' | 'virtual';
  packageType: string;
  url?: string;
  repositories?: string[];
  defaultDeploymentRepo?: string;
}

export const quickSetupKey = (
  prefix: string,
  packageType: string,
  rclass: PlannedRepository['rclass'],
) => `${prefix}-${packageType}-${rclass}`;

export function planQuickSetup(prefix: string, choices: QuickSetupChoice[]): PlannedRepository[] {
  return choices.flatMap(({ packageType, upstreamUrl }) => {
    const local = quickSetupKey(prefix, packageType, 'local');
    const remote = quickSetupKey(prefix, packageType, 'remote');
    return [
      { key: local, rclass: 'local' as const, packageType },
      { key: remote, rclass: 'remote' as const, packageType, url: upstreamUrl?.trim() ?? '' },
      {
        key: quickSetupKey(prefix, packageType, 'virtual'),
        rclass: 'virtual' as const,
        packageType,
        repositories: [local, remote],
        defaultDeploymentRepo: local,
      },
    ];
  });
}
