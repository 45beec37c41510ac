import {
  BUCKET_FILE_LIMIT,
  LICENSE_BUCKET_MESSAGES,
} from '../../../server/modules/license-buckets/messages.ts';

/** Administration > License Management > License Buckets (spec 01 §2, §5, §8, §9). */
export const BUCKETS_PATH = '/admin/license_management/license_buckets';

/**
 * Spec 01's messages, verbatim: the form's checks and the notifications, the same words the
 * server answers with (one list for both).
 */
export const BUCKET_MESSAGES = LICENSE_BUCKET_MESSAGES;
export { BUCKET_FILE_LIMIT };
export const BUCKET_NAME = /^[A-Za-z0-9._-]+$/;

export const BUCKET_LABELS = {
  title: 'License Buckets',
  add: 'Add Bucket',
  addTitle: 'Add License Bucket',
  columns: {
    name: 'Bucket Name',
    identifier: 'Bucket ID',
    licenseType: 'License Type',
    issueDate: 'Issue Date',
    expiryDate: 'Expiry Date',
    used: 'Used / Bucket Size',
    customerName: 'Customer Name',
    totalProjects: 'Total Projects',
  },
  name: 'Name',
  fileUpload: 'File Upload',
  file: 'File',
  fromUrl: 'From URL',
  url: 'URL',
  signedUrl: 'Signed URL',
  key: 'Key',
  save: 'Save',
  cancel: 'Cancel',
  actions: 'Actions',
  report: 'Report',
  attach: 'Attach',
  split: 'Split',
  download: 'Download',
  delete: 'Delete',
  deleteTitle: 'Delete License Bucket',
  deleteParent: (name: string) =>
    `Delete bucket ${name}? All its licenses and split buckets are deleted with it.`,
  deleteSplit: (name: string, parent: string) =>
    `Delete split bucket ${name}? Its licenses return to bucket ${parent}.`,
  empty: 'No license buckets yet',
  splitTitle: 'Split Bucket',
  sourceBucket: 'Source Bucket',
  totalLicense: 'Total License',
  availableLicense: 'Available License',
  bucketName: 'Bucket Name',
  numberOfLicenses: 'Number of Licenses',
  attachTitle: (name: string) => `Attach Licenses from ${name}`,
  deployment: 'Deployment',
  status: 'Status',
  licensesToAttach: '# Licenses to Attach',
  licenses: '# Licenses',
  reportTitle: (name: string) => `Bucket Report: ${name}`,
  totalLicenses: 'Total Licenses',
  bucketIdentifier: 'Bucket Identifier',
  maxConsumed: 'Maximum consumed licenses over time',
  unknownUsage: 'Unknown Usage',
  pipelinesNodes: 'Pipelines nodes count',
  deployments: 'Platform Deployments',
  splits: 'Split Buckets',
  totalProjects: 'Total Projects',
  none: 'None',
  detach: 'Detach',
  detachTitle: 'Detach Licenses',
  detachText: (licenses: number, deployment: string, bucket: string) =>
    `Detach the ${licenses} license(s) of bucket ${bucket} from ${deployment}? They return to the bucket's available licenses.`,
  back: 'Back to License Buckets',
} as const;
