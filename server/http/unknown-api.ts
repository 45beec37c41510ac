import { NotFound } from '../errors.ts';

const API_PREFIX = '/artifactory/api/';

/**
 * `/artifactory/api/...` is the REST API's namespace ('api' is a reserved repository key), so
 * a path there that no route serves is an API Depot does not have, not a repository named
 * "api": the caller hears which call it made, as Artifactory answers an unknown REST path.
 */
export function noSuchApi(method: string, url: string): NotFound {
  return new NotFound(`No such API: ${method} ${url.split('?')[0]}`);
}

export const isApiPath = (url: string) => url.split('?')[0]!.startsWith(API_PREFIX);
