/**
 * The builds pages' route (spec 01 §2, 02 §2): /builds/{name}/{number}/{startTime}/{tab}.
 * A route is a contract between pages, so it lives here: the builds pages write it and the
 * tree's Builds tab links into it, and neither feature imports the other.
 */
export const BUILDS_PATH = '/builds';

/** A build's pages, each part encoded: names may hold `/` (Jenkins folders). */
export const buildPath = (
  name: string,
  number?: string,
  startTime?: number | string,
  tab?: string,
) =>
  [BUILDS_PATH, name, number, startTime === undefined ? undefined : String(startTime), tab]
    .filter((part): part is string => part !== undefined)
    .map((part, index) => (index === 0 ? part : encodeURIComponent(part)))
    .join('/');
