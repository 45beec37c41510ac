/** What the PyPI endpoints answer when they refuse; twine prints the reason after the status. */
export const PYPI_MESSAGES = {
  notPypi: (key: string) => `Repository '${key}' is not a PyPI repository`,
  notMultipart: 'An upload is a multipart/form-data request, as twine sends it',
  unknownAction: (action: string) => `Unknown action '${action}': only file_upload is supported`,
  missingField: (field: string) => `The upload has no '${field}' field`,
  missingFile: "The upload has no file in its 'content' field",
  badFilename: (filename: string) =>
    `Invalid distribution file name '${filename}': expected a wheel (.whl) or an sdist (.tar.gz, .zip) named after the project and version`,
  filenameMismatch: (filename: string, name: string, version: string) =>
    `The file '${filename}' does not belong to ${name} ${version}`,
  invalidVersion: (version: string) => `Invalid version '${version}': not a PEP 440 version`,
  exists: (filename: string) => `File already exists: ${filename}`,
  projectNotFound: (name: string) => `Project '${name}' could not be found`,
  fileNotFound: (path: string) => `File '${path}' could not be found`,
} as const;
