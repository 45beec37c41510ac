/**
 * What license bucket calls answer. The first group is spec 01's wording, used verbatim by
 * the server, the console and the tests; the rest are Depot's own.
 */
export const LICENSE_BUCKET_MESSAGES = {
  mandatory: 'This field is mandatory',
  badName: 'Name can only contain alphanumeric characters, dashes and periods',
  notJsonFile: 'File should have an extension of .json',
  fileTooLarge: 'File should be less than 13 MB',
  badUrl: 'Enter a valid URL',
  overAvailable:
    'Licenses to be applied is more than the available number of licenses in the bucket',
  tooHigh: 'Value too high',
  tooLow: 'Value too low',
  decimal: 'Decimal not allowed',
  listFailed: 'Unable to fetch License Buckets',
  added: 'Successfully added bucket',
  removed: 'Successfully removed bucket',

  noPublicKey:
    'License buckets cannot be added: no public key to verify them is configured (set DEPOT_LICENSE_PUBLIC_KEY)',
  notJson: 'The bucket file is not valid JSON',
  notBucket: (why: string) => `The file is not a license bucket: ${why}`,
  badSignature:
    "The bucket file's signature does not match its contents: it was changed after it was signed, or signed with another key",
  expired: (date: string) => `The license bucket expired on ${date}`,
  keyMismatch: 'The key does not match this bucket',
  keyless: 'This bucket has no key: add it by uploading its file',
  notFound: (id: string) => `License bucket '${id}' could not be found.`,
  nameExists: (name: string) => `Name '${name}' already exists`,
  alreadyAdded: (id: string) => `Bucket '${id}' was already added`,
  fetchFailed: (reason: string) => `The bucket file could not be fetched: ${reason}`,
  fetchStatus: (status: number) =>
    `The bucket file could not be fetched: the server answered ${status}`,
  noFile: (parent: string) =>
    `A split bucket has no file of its own; its licenses come from the file of bucket '${parent}'`,
  splitOfSplit: 'A split bucket cannot be split again',
  deploymentNotFound: (id: string) => `Deployment '${id}' could not be found.`,
  deploymentDown: (name: string, status: string) =>
    `Licenses attach only to deployments that are ONLINE or PARTIAL; '${name}' is ${status}`,
  attached: (count: number, name: string) => `${count} license(s) attached to ${name}`,
  split: (name: string) => `Bucket '${name}' split off`,
  detached: (count: number, names: string) => `${count} license(s) detached from ${names}`,
  notAttached: (bucket: string, deployment: string) =>
    `Bucket '${bucket}' has no licenses attached to deployment '${deployment}'`,
} as const;

/** Spec 01 §9: a bucket file is under 13 MB (13 * 1024 * 1024 bytes). */
export const BUCKET_FILE_LIMIT = 13 * 1024 * 1024;
