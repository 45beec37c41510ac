/**
 * An item's columns with its content's checksums, as `nodes` left-joined to `blobs` reads
 * them: what a lookup of one item and a walk of a repository both answer.
 */
export const NODE_WITH_CHECKSUMS = [
  'nodes.id',
  'nodes.path',
  'nodes.name',
  'nodes.folder',
  'nodes.sha256',
  'nodes.size',
  'nodes.mime_type',
  'nodes.created_at',
  'nodes.created_by',
  'nodes.modified_at',
  'nodes.modified_by',
  'blobs.sha1',
  'blobs.md5',
] as const;
