import { call } from '../../api/client';
import type { SearchParams } from './query';

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
    case 'pkg': {
      const type = params.pkg ?? 'npm';
      const fields = [
        { id: 'pkgType', values: [type] },
        { id: `${type}Name`, values: params.name ? [params.name] : [] },
        { id: `${type}Version`, values: params.version ? [params.version] : [] },
        { id: 'repo', values: selectedRepositories },
      ];
      return { call: 'pkg', body: { query: fields } };
    }
    case 'remote':
      return { call: 'remote', body: { searchKey: params.name } };
    default:
      return { call: 'quick', body: { query: params.name, selectedRepositories } };
  }
}

export const searchApi = {
  /** `projectKey`: the project context, whose repositories the search looks in. */
  search(
    params: SearchParams,
    { continueState, projectKey }: { continueState?: string; projectKey?: string | null } = {},
  ) {
    const { call: path, body } = request(params);
    return call<SearchPage>('POST', `/ui/artifactsearch/${path}`, {
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
