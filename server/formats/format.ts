import type { FastifyInstance } from 'fastify';
import type { DepotConfig } from '../config.ts';
import type { Filestore } from '../storage/filestore.ts';
import type { PrepareIndex } from '../modules/artifacts/service.ts';
import type { Services } from '../services.ts';

/**
 * A package format Depot speaks natively (docs/formats.md). Each lives in
 * `server/formats/<name>/` and describes itself with one of these in its `format.ts`; the
 * registry (`registry.ts`) is the list of them. The package browser and the index
 * recalculation ask it; Maven's own answers (metadata, snapshot names, release and snapshot
 * handling) are still reached by testing for Maven-layout types (`MAVEN_TYPES`).
 */
export interface PackageFormat {
  /** Its folder under server/formats/, and its path under `/artifactory/api/`. */
  name: string;
  /** The catalogue's package types it serves (Maven's layout serves Gradle, Ivy and SBT too). */
  packageTypes: readonly string[];
  /**
   * Where its clients talk to it: `api`, its own routes under
   * `/artifactory/api/<name>/<repoKey>/...`; `repository`, the repository's own path
   * (`/artifactory/<repoKey>/...`), as Maven's layout is its protocol.
   */
  clientPath: 'api' | 'repository';
  /** Orders two versions of one package, ascending, as the format's clients do. */
  compareVersions(a: string, b: string): number;
  /** Whether a version is a pre-release, as the format spells them. */
  isPreRelease(version: string): boolean;
  /**
   * Whether the version documents it stores are edited after the file arrived (npm's
   * deprecations): a recalculated index then keeps them, and indexes only files without one.
   */
  keepsEditedDocuments: boolean;
}

/** What a format's routes are given when the server registers them. */
export interface FormatRouteOptions {
  services: Services;
  filestore: Filestore;
  config: DepotConfig;
}

/** A format at work in a running server: built with the services it needs. */
export interface FormatRuntime {
  format: PackageFormat;
  /**
   * Looks at a file about to be stored in one of its repositories, by any route (its client,
   * a plain PUT, a copy, the console's deploy): refuses it, or answers the index rows
   * (package name, version, metadata) written in the file's own transaction.
   */
  prepareIndex: PrepareIndex;
  /** Its client protocol's routes, for a format whose clients use `/artifactory/api/<name>/`. */
  routes?: (app: FastifyInstance, options: FormatRouteOptions) => Promise<void>;
}
