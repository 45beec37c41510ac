import type { AqlQuery } from './aql-parser.ts';
import type { ItemField } from './criteria.ts';
import type { ItemRow } from './queries.ts';
import type { SearchService } from './service.ts';

/** What AQL answers of an item when the query includes nothing in particular. */
const DEFAULT_FIELDS: ItemField[] = [
  'repo',
  'path',
  'name',
  'type',
  'size',
  'created',
  'created_by',
  'modified',
  'modified_by',
  'updated',
];

const iso = (date: Date | string) => new Date(date).toISOString();

function valueOf(row: ItemRow, field: ItemField): string | number | null {
  switch (field) {
    case 'repo':
      return row.repo;
    case 'path':
      return row.parent_path === '' ? '.' : row.parent_path;
    case 'name':
      return row.name;
    case 'type':
      return row.folder ? 'folder' : 'file';
    case 'size':
      return row.size;
    case 'depth':
      return row.path.split('/').length;
    case 'created':
      return iso(row.created_at);
    case 'created_by':
      return row.created_by;
    case 'modified':
    case 'updated':
      return iso(row.modified_at);
    case 'modified_by':
      return row.modified_by;
    case 'sha256':
      return row.sha256;
    case 'actual_sha1':
    case 'original_sha1':
      return row.sha1;
    case 'actual_md5':
    case 'original_md5':
      return row.md5;
  }
}

/** Items in AQL's shape: the included fields (or the default ones), then properties if asked. */
export async function renderAqlItems(rows: ItemRow[], aql: AqlQuery, search: SearchService) {
  const fields = aql.include ?? DEFAULT_FIELDS;
  if (fields.some((field) => field.endsWith('md5'))) await search.md5sOf(rows);
  const properties = aql.properties ? await search.propertiesOf(rows) : undefined;
  return rows.map((row) => ({
    ...Object.fromEntries(fields.map((field) => [field, valueOf(row, field)])),
    ...(properties ? { properties: properties.get(row.id) ?? [] } : {}),
  }));
}
