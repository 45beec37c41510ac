import type {
  DestinationRuleJson,
  DestinationSectionJson,
  PermissionSectionJson,
  PipelineSectionJson,
  XraySectionJson,
} from '../../db/tables.ts';

/**
 * A permission target in Artifactory's v2 JSON shape (spec 01 §3; docs/access-control.md):
 * a section per resource type, each naming repositories, Ant include and exclude patterns,
 * and the actions granted to users and groups.
 */
export type PermissionSection = PermissionSectionJson;

export type DestinationRule = DestinationRuleJson;
export type DestinationSection = DestinationSectionJson;
export type PipelineSection = PipelineSectionJson;
export type XraySection = XraySectionJson;

export interface PermissionTarget {
  name: string;
  repo?: PermissionSection;
  build?: PermissionSection;
  releaseBundle?: PermissionSection;
  /**
   * Spec 01 §3's other sections. Depot has no distribution, pipelines or Xray service, so
   * they are stored and served but grant nothing yet, and the console does not show them
   * (spec 01 §6: a section appears only where its service is).
   */
  destination?: DestinationSection;
  pipelineSource?: PipelineSection;
  xraySource?: XraySection;
}

/** The sections that name repositories (or builds, bundles) with include and exclude patterns. */
export const SECTIONS = ['repo', 'build', 'releaseBundle'] as const;
export const OTHER_SECTIONS = ['destination', 'pipelineSource', 'xraySource'] as const;
export const ALL_SECTIONS = [...SECTIONS, ...OTHER_SECTIONS] as const;
export type SectionName = (typeof ALL_SECTIONS)[number];

/**
 * Each section's actions in the order of spec 01 §3's table, by their v2 names: granting one
 * implies every one before it (manage implies all; delete implies deploy, annotate, read).
 */
export const SECTION_ACTIONS: Record<SectionName, readonly string[]> = {
  repo: ['read', 'annotate', 'write', 'delete', 'managedXrayMeta', 'manage'],
  build: ['read', 'annotate', 'write', 'delete', 'managedXrayMeta', 'manage'],
  releaseBundle: ['read', 'annotate', 'write', 'distribute', 'delete', 'managedXrayMeta', 'manage'],
  destination: ['distribute', 'delete', 'manage'],
  pipelineSource: ['read', 'trigger', 'manage'],
  xraySource: ['read', 'managedXrayMeta'],
};

/** Repository markers that stand for whole classes; all of them together mean any. */
export const ANY = 'ANY';
export const ANY_LOCAL = 'ANY LOCAL';
export const ANY_REMOTE = 'ANY REMOTE';
export const ANY_DISTRIBUTION = 'ANY DISTRIBUTION';
export const REPOSITORY_MARKERS = [ANY, ANY_LOCAL, ANY_REMOTE, ANY_DISTRIBUTION];

/** The fixed repositories of the build and release-bundle sections (spec 01 §3). */
export const SECTION_DEFAULT_REPOSITORIES: Record<(typeof SECTIONS)[number], string[]> = {
  repo: [],
  build: ['artifactory-build-info'],
  releaseBundle: ['release-bundles'],
};

/** A remote repository's cache is what a target names (spec 01 §3: "-cache" on save). */
export const CACHE_SUFFIX = '-cache';

/** An action list with what each action implies, in the section's order, without repeats. */
export function withImpliedActions(section: SectionName, actions: readonly string[]): string[] {
  const order = SECTION_ACTIONS[section];
  const highest = Math.max(...actions.map((action) => order.indexOf(action)));
  return order.slice(0, highest + 1);
}

/** The sections a target has, each with its grants: who is named where. */
export function presentSections(
  target: PermissionTarget,
): { name: SectionName; actions: PermissionSection['actions'] }[] {
  return ALL_SECTIONS.flatMap((name) => {
    const section = target[name];
    return section ? [{ name, actions: section.actions }] : [];
  });
}
