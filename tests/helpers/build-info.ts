import { createHash } from 'node:crypto';

/** Checksums of some content, as a build-info document lists them. */
export function checksumsOf(content: string) {
  const hash = (algorithm: string) => createHash(algorithm).update(content).digest('hex');
  return { sha1: hash('sha1'), sha256: hash('sha256'), md5: hash('md5') };
}

export interface FileSpec {
  name: string;
  content: string;
  type?: string;
  scopes?: string[];
}

const artifact = (file: FileSpec) => ({
  type: file.type ?? file.name.split('.').pop(),
  name: file.name,
  ...checksumsOf(file.content),
});
const dependency = (file: FileSpec) => ({
  type: file.type ?? file.name.split('.').pop(),
  id: file.name,
  ...(file.scopes ? { scopes: file.scopes } : {}),
  ...checksumsOf(file.content),
});

/** The time build-info writes: `yyyy-MM-dd'T'HH:mm:ss.SSSZ`, offset without a colon. */
export const startedAt = (date: Date) => date.toISOString().replace('Z', '+0000');

/**
 * A build-info document as the build-info schema describes it (name, number, started,
 * agents, VCS, environment properties, modules with artifacts and dependencies by checksum).
 */
export function buildInfo(options: {
  name: string;
  number: string;
  started?: Date;
  type?: string;
  modules: { id: string; artifacts?: FileSpec[]; dependencies?: FileSpec[] }[];
  properties?: Record<string, string>;
  extra?: Record<string, unknown>;
}) {
  return {
    version: '1.0.1',
    name: options.name,
    number: options.number,
    type: options.type ?? 'GENERIC',
    started: startedAt(options.started ?? new Date()),
    durationMillis: 1234,
    buildAgent: { name: 'Maven', version: '3.9.6' },
    agent: { name: 'Jenkins', version: '2.440' },
    principal: 'ci',
    url: `https://ci.example.com/job/${options.name}/${options.number}/`,
    vcs: [
      {
        revision: 'e4ab2e493afd369ae7bdc90d69c912e8346a3463',
        url: 'https://git.example.com/acme/app.git',
        branch: 'main',
      },
    ],
    properties: { 'buildInfo.env.JAVA_HOME': '/opt/java', ...(options.properties ?? {}) },
    modules: options.modules.map((module) => ({
      id: module.id,
      artifacts: (module.artifacts ?? []).map(artifact),
      dependencies: (module.dependencies ?? []).map(dependency),
    })),
    issues: {
      tracker: { name: 'JIRA', version: '9.0' },
      affectedIssues: [
        { key: 'APP-1', url: 'https://jira.example.com/browse/APP-1', summary: 'Fix it' },
      ],
    },
    ...(options.extra ?? {}),
  };
}
