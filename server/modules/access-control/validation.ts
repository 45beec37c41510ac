import { BadRequest, NotFound } from '../../errors.ts';
import { COUNTRY_CODES } from './countries.ts';
import { ACCESS_MESSAGES as M } from './messages.ts';
import {
  CACHE_SUFFIX,
  REPOSITORY_MARKERS,
  SECTION_ACTIONS,
  SECTION_DEFAULT_REPOSITORIES,
  OTHER_SECTIONS,
  SECTIONS,
  withImpliedActions,
  type DestinationRule,
  type PermissionSection,
  type PermissionTarget,
  type SectionName,
} from './permission-target.ts';

/** What checking a target needs to know of the rest of Depot. */
export interface TargetChecks {
  /** A repository's class, or undefined when there is none by that key (any case). */
  repositoryClass(key: string): Promise<{ key: string; rclass: string } | undefined>;
  /** Whether a user exists and is an administrator; undefined when there is none. */
  userIsAdmin(name: string): Promise<boolean | undefined>;
  groupIsAdmin(name: string): Promise<boolean | undefined>;
}

const IN_TRANSIT = '_intransit';

function checkPatterns(patterns: string[]): string[] {
  const kept = patterns.map((pattern) => pattern.trim()).filter(Boolean);
  const rooted = kept.find((pattern) => pattern.startsWith('/'));
  if (rooted) throw new BadRequest(M.leadingSlash(rooted), 'include-patterns');
  return kept;
}

/** Markers as they are; real keys as stored, remote ones naming their cache. */
async function checkRepositories(keys: string[], checks: TargetChecks): Promise<string[]> {
  const checked: string[] = [];
  for (const key of keys) {
    if (REPOSITORY_MARKERS.includes(key)) {
      checked.push(key);
      continue;
    }
    const bare = key.endsWith(CACHE_SUFFIX) ? key.slice(0, -CACHE_SUFFIX.length) : key;
    const repo =
      key === IN_TRANSIT
        ? undefined
        : ((await checks.repositoryClass(key)) ?? (await checks.repositoryClass(bare)));
    if (!repo) throw new BadRequest(M.unknownRepository(key), 'repositories');
    if (repo.rclass === 'virtual') throw new BadRequest(M.virtualRepository(key), 'repositories');
    checked.push(repo.rclass === 'remote' ? `${repo.key}${CACHE_SUFFIX}` : repo.key);
  }
  return [...new Set(checked)];
}

async function checkPrincipals(
  section: SectionName,
  granted: Record<string, string[]>,
  isAdmin: (name: string) => Promise<boolean | undefined>,
  unknown: (name: string) => string,
): Promise<Record<string, string[]>> {
  const checked: Record<string, string[]> = {};
  for (const [name, actions] of Object.entries(granted)) {
    const bad = actions.find((action) => !SECTION_ACTIONS[section].includes(action));
    if (bad !== undefined) throw new BadRequest(M.unknownAction(bad), 'actions');
    const admin = await isAdmin(name);
    if (admin === undefined) throw new BadRequest(unknown(name), 'actions');
    if (admin) throw new BadRequest(M.adminPrincipal(name), 'actions');
    if (actions.length > 0) checked[name] = withImpliedActions(section, actions);
  }
  return checked;
}

/** Every principal's actions, each user and group checked, as every section grants them. */
async function checkActions(
  name: SectionName,
  actions: Partial<PermissionSection['actions']> | undefined,
  checks: TargetChecks,
): Promise<PermissionSection['actions']> {
  return {
    users: await checkPrincipals(
      name,
      actions?.users ?? {},
      async (user) => (user === 'anonymous' ? false : checks.userIsAdmin(user)),
      M.unknownUser,
    ),
    groups: await checkPrincipals(name, actions?.groups ?? {}, checks.groupIsAdmin, M.unknownGroup),
  };
}

/** A rule's site and city are names or `*`; its countries are codes of the list, or `*`. */
function checkDestinationRule(rule: Partial<DestinationRule>): DestinationRule {
  const siteName = rule.siteName?.trim() || '*';
  const cityName = rule.cityName?.trim() || '*';
  const codes = (rule.countryCodes ?? []).map((code) => code.trim().toUpperCase());
  const unknown = codes.find((code) => code !== '*' && !COUNTRY_CODES.has(code));
  if (unknown !== undefined) throw new BadRequest(M.unknownCountry(unknown), 'destinationRules');
  return { siteName, cityName, countryCodes: codes.length > 0 ? [...new Set(codes)] : ['*'] };
}

async function checkOtherSection(
  target: PermissionTarget,
  name: (typeof OTHER_SECTIONS)[number],
  checks: TargetChecks,
): Promise<Partial<PermissionTarget>> {
  const given = target[name];
  if (!given) return {};
  const actions = await checkActions(name, given.actions, checks);
  switch (name) {
    case 'destination': {
      const rules = (target.destination?.destinationRules ?? []).map(checkDestinationRule);
      return { destination: { destinationRules: rules, actions } };
    }
    case 'pipelineSource': {
      const includes = checkPatterns(target.pipelineSource?.['include-patterns'] ?? ['**']);
      const excludes = checkPatterns(target.pipelineSource?.['exclude-patterns'] ?? []);
      return {
        pipelineSource: {
          'include-patterns': includes.length > 0 ? includes : ['**'],
          'exclude-patterns': excludes,
          actions,
        },
      };
    }
    case 'xraySource': {
      const targets = (target.xraySource?.targets ?? []).map((t) => t.trim()).filter(Boolean);
      return { xraySource: { targets: [...new Set(targets)], actions } };
    }
  }
}

async function checkSection(
  name: (typeof SECTIONS)[number],
  section: Partial<PermissionSection>,
  checks: TargetChecks,
): Promise<PermissionSection> {
  const fixed = SECTION_DEFAULT_REPOSITORIES[name];
  const includes = checkPatterns(section['include-patterns'] ?? ['**']);
  return {
    'include-patterns': includes.length > 0 ? includes : ['**'],
    'exclude-patterns': checkPatterns(section['exclude-patterns'] ?? []),
    repositories:
      name === 'repo' ? await checkRepositories(section.repositories ?? [], checks) : fixed,
    actions: await checkActions(name, section.actions, checks),
  };
}

/**
 * A target as it will be stored: defaults filled in (Artifactory's: include `**`, the fixed
 * repositories of builds and bundles), remote keys naming their cache, every action with the
 * ones it implies. Unknown repositories, users, groups and actions, admins, virtual
 * repositories and rooted patterns are refused with a message naming them.
 */
export async function checkTarget(
  target: PermissionTarget,
  checks: TargetChecks,
): Promise<PermissionTarget> {
  const name = target.name?.trim() ?? '';
  if (name === '') throw new BadRequest(M.nameEmpty, 'name');
  const checked: PermissionTarget = { name };
  for (const section of SECTIONS) {
    const given = target[section];
    if (given) checked[section] = await checkSection(section, given, checks);
  }
  for (const section of OTHER_SECTIONS)
    Object.assign(checked, await checkOtherSection(target, section, checks));
  return checked;
}

/** Adapts services to `TargetChecks`; a NotFound from them means "no such". */
export async function orUndefined<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
}
