import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../server/catalogue/catalogue.ts';
import { SCHEMAS_DIR } from '../server/schemas/registry.ts';

const catalogue = loadCatalogue();

// Spec 03 §3, "Package-type catalogue": every type, by its server enum name.
const SPEC_TYPES = [
  'Terraform', 'TerraformBackend', 'Alpine', 'Bower', 'Cargo', 'Chef', 'CocoaPods', 'Conan',
  'Conda', 'CRAN', 'Debian', 'Docker', 'Gems', 'GitLfs', 'Go', 'Gradle', 'Helm', 'Ivy', 'Maven',
  'Npm', 'NuGet', 'Opkg', 'Composer', 'P2', 'Pypi', 'Pub', 'Puppet', 'SBT', 'Swift', 'Vagrant',
  'VCS', 'YUM', 'Generic', 'BuildInfo', 'SupportBundle',
]; // prettier-ignore

// Spec 03 §3, "Default layouts".
const SPEC_LAYOUTS = [
  'maven-2-default', 'ivy-default', 'nuget-default', 'npm-default', 'bower-default',
  'composer-default', 'conan-default', 'puppet-default', 'vcs-default', 'sbt-default',
  'go-default', 'swift-default', 'simple-default', 'terraform-module-default',
  'terraform-provider-default',
]; // prettier-ignore

const ALL_KINDS = ['local', 'remote', 'virtual', 'federated'];
const RESTRICTED_KINDS: Record<string, string[]> = {
  terraformbackend: ['local'],
  p2: ['remote', 'virtual'],
  vagrant: ['local', 'federated'],
  vcs: ['remote'],
  buildinfo: [],
  supportbundle: [],
};

describe('package-type catalogue', () => {
  it('has every type of the spec, once, with a lower-case value', () => {
    const names = catalogue.packageTypes.map((t) => t.serverEnumName);
    expect([...names].sort()).toEqual([...SPEC_TYPES].sort());
    for (const type of catalogue.packageTypes) expect(type.value).toMatch(/^[a-z][a-z0-9]*$/);
  });

  it('shows YUM as RPM, with the REST API value rpm', () => {
    expect(catalogue.packageType('rpm')).toMatchObject({ serverEnumName: 'YUM', text: 'RPM' });
  });

  it('allows each type the repository kinds of the spec', () => {
    for (const type of catalogue.packageTypes) {
      const expected = RESTRICTED_KINDS[type.value] ?? ALL_KINDS;
      expect(catalogue.allowedRepoTypes(type.value), type.value).toEqual(expected);
    }
    expect(catalogue.packageTypesFor('remote').map((t) => t.value)).toContain('p2');
    expect(catalogue.packageTypesFor('local').map((t) => t.value)).not.toContain('vcs');
  });

  it('restricts editions to their own types plus the free-tier ones (docs/decisions.md)', () => {
    const allowedUnder = (edition: 'OSS' | 'JCR' | 'CONAN') =>
      catalogue.packageTypes
        .filter((t) => !t.editionRestrictions?.[edition])
        .map((t) => t.serverEnumName)
        .sort();
    expect(allowedUnder('OSS')).toEqual(['BuildInfo', 'Generic', 'Gradle', 'Ivy', 'Maven', 'SBT']);
    expect(allowedUnder('JCR')).toEqual(['BuildInfo', 'Docker', 'Generic', 'Helm']);
    expect(allowedUnder('CONAN')).toEqual(['BuildInfo', 'Conan', 'Generic']);
  });

  it('gives each type its default layout, and every one exists', () => {
    const expected: Record<string, string> = {
      maven: 'maven-2-default',
      gradle: 'maven-2-default',
      ivy: 'ivy-default',
      sbt: 'sbt-default',
      nuget: 'nuget-default',
      npm: 'npm-default',
      bower: 'bower-default',
      composer: 'composer-default',
      conan: 'conan-default',
      puppet: 'puppet-default',
      vcs: 'vcs-default',
      go: 'go-default',
      swift: 'swift-default',
      terraform: 'terraform-module-default',
    };
    for (const type of catalogue.packageTypes) {
      const layout = catalogue.defaultLayout(type.value);
      expect(layout?.name, type.value).toBe(expected[type.value] ?? 'simple-default');
    }
    expect(catalogue.defaultLayout('MAVEN')?.name).toBe('maven-2-default');
  });

  it('answers undefined for what it does not know', () => {
    expect(catalogue.packageType('shoebox')).toBeUndefined();
    expect(catalogue.allowedRepoTypes('shoebox')).toBeUndefined();
    expect(catalogue.defaultLayout('shoebox')).toBeUndefined();
    expect(catalogue.layout('shoebox-default')).toBeUndefined();
  });

  it('cannot be changed by a caller', () => {
    expect(() => {
      (catalogue.packageType('maven') as { text: string }).text = 'Mavin';
    }).toThrow(TypeError);
  });
});

describe('repository layouts', () => {
  it('has the default layouts of the spec', () => {
    expect(catalogue.layouts.map((l) => l.name)).toEqual(SPEC_LAYOUTS);
  });

  it('gives a descriptor pattern exactly to the layouts with a distinct descriptor', () => {
    const withDescriptor = catalogue.layouts.filter((l) => l.distinctiveDescriptorPathPattern);
    expect(withDescriptor.map((l) => l.name)).toEqual([
      'maven-2-default',
      'ivy-default',
      'sbt-default',
    ]);
    for (const layout of catalogue.layouts) {
      expect(layout.descriptorPathPattern !== '', layout.name).toBe(
        layout.distinctiveDescriptorPathPattern,
      );
    }
  });

  it("recognizes Maven's snapshot revisions", () => {
    const maven = catalogue.layout('maven-2-default')!;
    expect(maven.descriptorPathPattern).toMatch(/\.pom$/);
    const fileRev = new RegExp(`^(?:${maven.fileIntegrationRevisionRegExp})$`);
    expect(fileRev.test('20240131.101502-7')).toBe(true);
    expect(fileRev.test('SNAPSHOT')).toBe(true);
    expect(fileRev.test('1.0')).toBe(false);
  });
});

describe('loading a broken catalogue', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  /** A copy of schemas/ with one catalogue file replaced. */
  function schemasWith(file: string, content: string) {
    dir = mkdtempSync(join(tmpdir(), 'depot-catalogue-'));
    cpSync(SCHEMAS_DIR, dir, { recursive: true });
    const path = join(dir, 'catalogue', file);
    writeFileSync(path, content);
    return { dir, path };
  }

  /** A mutable copy of frozen catalogue data, to break. */
  const copyOf = (data: readonly object[]): Record<string, unknown>[] =>
    JSON.parse(JSON.stringify(data));
  const types = () => copyOf(catalogue.packageTypes);

  it('names the file and the field that breaks the meta-schema', () => {
    const broken = types();
    broken[3].repoTypes = ['local', 'attic'];
    const { dir, path } = schemasWith('package-types.json', JSON.stringify(broken));
    expect(() => loadCatalogue(dir)).toThrow(
      `${path}: /3/repoTypes/1 must be equal to one of the allowed values`,
    );
  });

  it('names a default layout that does not exist', () => {
    const broken = types();
    broken[0].defaultLayout = 'terraform-default';
    const { dir, path } = schemasWith('package-types.json', JSON.stringify(broken));
    expect(() => loadCatalogue(dir)).toThrow(
      `${path}: terraform: default layout 'terraform-default' is not a layout`,
    );
  });

  it('names a value used twice', () => {
    const broken = types();
    broken[1].value = 'terraform';
    const { dir, path } = schemasWith('package-types.json', JSON.stringify(broken));
    expect(() => loadCatalogue(dir)).toThrow(`${path}: value 'terraform' is used twice`);
  });

  it('names a layout with a descriptor flag but no descriptor pattern', () => {
    const broken = copyOf(catalogue.layouts);
    broken[0].descriptorPathPattern = '';
    const { dir, path } = schemasWith('repo-layouts.json', JSON.stringify(broken));
    expect(() => loadCatalogue(dir)).toThrow(`${path}: /0/descriptorPathPattern`);
  });

  it('names a file that is not JSON', () => {
    const { dir, path } = schemasWith('repo-layouts.json', '[{');
    expect(() => loadCatalogue(dir)).toThrow(path);
  });
});
