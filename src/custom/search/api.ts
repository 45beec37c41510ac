import { call } from '../../api/client';
import type { PackageSearchField } from '../../../server/modules/search/package-fields.ts';
import type { SearchParams } from './query';

export type { PackageSearchField };

/** A package type the package search offers, with the fields it is searched by. */
export interface PackageSearchType {
  id: string;
  fields: PackageSearchField[];
}

/** The search's package type: the one asked for, else npm (the first the server lists). */
export const packageTypeOf = (params: SearchParams) => params.pkg ?? 'npm';

/**
 * The package search's body (spec 02 §3, §7): each of the type's fields with the value the
 * query string holds under its `uiSearchKey` (Maven's Group ID is `name`, npm's Scope `scope`).
 */
export function packageQuery(params: SearchParams, fields: PackageSearchField[]) {
  const value = (key: string): string[] => {
    if (key === 'repo') return params.repo ?? [];
    const text = params[key as keyof SearchParams];
    return typeof text === 'string' && text.trim() ? [text.trim()] : [];
  };
  return [
    { id: 'pkgType', values: [packageTypeOf(params)] },
    ...fields.map((field) => ({ id: field.id, values: value(field.uiSearchKey) })),
  ];
}

/** One result row as the server answers it (server/modules/search/console-routes.ts). */
export interface SearchResult {
  repoKey: string;
  path: string;
  name: string;
  type?: 'file' | 'folder';
  size?: number;
  /** Absent for what a remote's upstream found (not cached yet). */
  modifiedDate?: number;
  /** Class results: the entry inside the archive at `path`. */
  entryPath?: string;
  /** Package results. */
  packageName?: string;
  version?: string;
}

export interface SearchPage {
  results: SearchResult[];
  hasMore: boolean;
  /** The Remote search: remote repositories whose upstream did not answer. */
  unavailable?: string[];
  continueState?: string;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** `key=v1,v2;other=v` → the property search's key/values. */
function propertyKeyValues(text: string | undefined) {
  return (text ?? '')
    .split(';')
    .map((pair) => pair.split('='))
    .filter(([key]) => key?.trim())
    .map(([key, values]) => ({ key: key!.trim(), values: list(values) }));
}

/** The call and body a search type sends (spec 02 §7 Artifact search). */
function request(params: SearchParams): { call: string; body: object } {
  const selectedRepositories = params.repo ?? [];
  switch (params.searchType) {
    case 'checksum':
      return {
        call: 'checksum',
        body: { checksum: params.checksum ?? params.name, selectedRepositories },
      };
    case 'property':
      return {
        call: 'property',
        body: { propertyKeyValues: propertyKeyValues(params.properties), selectedRepositories },
      };
    case 'class':
      return {
        call: 'class',
        body: {
          name: params.name,
          path: params.path,
          excludeInnerClasses: params.excludeInnerClasses ?? false,
          searchClassOnly: params.searchClassOnly ?? false,
          selectedRepositories,
        },
      };
    case 'gavc':
      return {
        call: 'gavc',
        body: {
          groupID: params.groupID,
          artifactID: params.artifactID,
          version: params.version,
          classifier: params.classifier,
          selectedRepositories,
        },
      };
    case 'trash':
      return {
        call: 'trash',
        body: { query: params.checksum ?? params.name, isChecksum: Boolean(params.checksum) },
      };
    case 'remote':
      return { call: 'remote', body: { searchKey: params.name } };
    default:
      return { call: 'quick', body: { query: params.name, selectedRepositories } };
  }
}

/** The fields the package search's type is searched by (spec 02 §7). */
const packageFields = (params: SearchParams) =>
  call<PackageSearchField[]>(
    'GET',
    `/ui/artifactsearch/pkg/fields/${encodeURIComponent(packageTypeOf(params))}`,
  );

export const searchApi = {
  /** The package types the package search offers, each with its fields. */
  packageTypes: () => call<PackageSearchType[]>('GET', '/ui/artifactsearch/pkg/availablePackages'),

  /** `projectKey`: the project context, whose repositories the search looks in. */
  async search(
    params: SearchParams,
    { continueState, projectKey }: { continueState?: string; projectKey?: string | null } = {},
  ) {
    const { call: path, body } =
      params.searchType === 'pkg'
        ? { call: 'pkg', body: { query: packageQuery(params, await packageFields(params)) } }
        : request(params);
    return await call<SearchPage>('POST', `/ui/artifactsearch/${path}`, {
      json: {
        ...body,
        search: params.searchType,
        ...(continueState ? { continueState } : {}),
        ...(projectKey ? { projectKey } : {}),
      },
    });
  },

  deleteArtifacts: (artifacts: { repoKey: string; path: string }[]) =>
    call<{ info: string }>('POST', '/ui/artifactsearch/deleteArtifact', { json: { artifacts } }),
};
