/**
 * A version's dependencies as the package browser's Dependencies tab lists them, read from the
 * manifest each format stores at deploy (docs/package-browser.md, "Dependencies"):
 * - npm: package.json's `dependencies`, `devDependencies`, `peerDependencies` and
 *   `optionalDependencies` (scope: runtime, dev, peer, optional);
 * - PyPI: the core metadata's `Requires-Dist` lines (PEP 508), an environment marker becoming
 *   the scope (`extra == "socks"` is the extra `socks`);
 * - Maven: the POM's `<dependencies>` (scope as written, `compile` when absent).
 */
export interface DependencyEntry {
  /** The dependency's name as its format spells it (`@scope/name`, `requests`, `g:a`). */
  name: string;
  /** The version or range asked for; empty when the manifest gives none. */
  range: string;
  scope: string;
}

type Manifest = Record<string, unknown>;

const NPM_SCOPES = [
  ['dependencies', 'runtime'],
  ['devDependencies', 'dev'],
  ['peerDependencies', 'peer'],
  ['optionalDependencies', 'optional'],
] as const;

function npmDependencies(manifest: Manifest): DependencyEntry[] {
  return NPM_SCOPES.flatMap(([field, scope]) => {
    const map = manifest[field];
    if (!map || typeof map !== 'object' || Array.isArray(map)) return [];
    return Object.entries(map as Record<string, unknown>).map(([name, range]) => ({
      name,
      range: String(range ?? ''),
      scope,
    }));
  });
}

// PEP 508: a name, optional [extras], a version specifier (bare or in parentheses), a marker.
const REQUIREMENT = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*?)\s*(?:;\s*(.*))?$/;
const EXTRA_MARKER = /^extra\s*==\s*["']([^"']+)["']$/;

/** One `Requires-Dist` line; undefined for a line that names no project. */
export function pypiRequirement(line: string): DependencyEntry | undefined {
  const match = REQUIREMENT.exec(line);
  if (!match) return undefined;
  const [, name, extras = '', specifier = '', marker = ''] = match;
  const range = `${extras}${specifier.replace(/^\((.*)\)$/, '$1')}`.trim();
  const extra = EXTRA_MARKER.exec(marker.trim());
  const scope = extra ? `extra: ${extra[1]}` : marker.trim() || 'runtime';
  return { name: name!, range, scope };
}

function pypiDependencies(manifest: Manifest): DependencyEntry[] {
  const lines = manifest.requires_dist;
  const list = Array.isArray(lines) ? lines : typeof lines === 'string' ? [lines] : [];
  return list.flatMap((line) => pypiRequirement(String(line)) ?? []);
}

function mavenDependencies(manifest: Manifest): DependencyEntry[] {
  const list = Array.isArray(manifest.dependencies) ? manifest.dependencies : [];
  return list.map((entry) => {
    const dependency = entry as Record<string, string | undefined>;
    return {
      name: `${dependency.groupId}:${dependency.artifactId}`,
      range: dependency.version ?? '',
      scope: dependency.scope ?? 'compile',
    };
  });
}

export function dependenciesOf(type: string, manifest: Manifest): DependencyEntry[] {
  if (type === 'npm') return npmDependencies(manifest);
  if (type === 'pypi') return pypiDependencies(manifest);
  if (type === 'maven') return mavenDependencies(manifest);
  return [];
}

/**
 * How the console renders a readme: Markdown (sanitized) or plain text. npm's readme is the
 * package's README file, Markdown unless its name says otherwise; PyPI's long description is
 * reStructuredText unless its content type says Markdown (the core metadata's default).
 */
export function readmeFormat(type: string, nameOrType: string | null): 'markdown' | 'text' {
  const said = (nameOrType ?? '').toLowerCase();
  if (said.startsWith('text/markdown') || /\.(md|markdown|mdown|mkd)$/.test(said))
    return 'markdown';
  if (said) return 'text';
  return type === 'npm' ? 'markdown' : 'text';
}
