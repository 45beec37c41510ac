/** The most a package view shows: a larger POM, XML file or package.json is refused. */
export const FILE_VIEW_MAX_BYTES = 1024 * 1024;
