/**
 * The screen descriptor format (schemas/meta/screen.meta.schema.json), as the server serves
 * it: `GET /ui/api/v1/schemas/screens/{id}` answers with `entitySchema` bundled in.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiCall {
  method: HttpMethod;
  path: string;
  /** For deleteMany: the body is `{[bodyKey]: keys}`. */
  bodyKey?: string;
}

export interface ResourceApi {
  list: ApiCall;
  get: ApiCall;
  create: ApiCall;
  update: ApiCall;
  deleteMany: ApiCall;
}

/**
 * Who may use a screen: visitors (when anonymous access is on), signed-in users, admins; and
 * `manager`: admins, and users who manage a permission target (spec 01 §6).
 */
export type Permission = 'admin' | 'user' | 'anonymous' | 'manager';

export interface MenuEntry {
  section: 'Application' | 'Administration';
  group: string;
  label: string;
  order?: number;
}

export interface ListColumn {
  field: string;
  header: string;
  link?: boolean;
  width?: number;
  format?: 'date' | 'count' | 'text';
}

export interface RowAction {
  id: string;
  label: string;
  method: Exclude<HttpMethod, 'GET'>;
  path: string;
  confirm?: string;
  /** When set, the body is a one-item list of this field of the row... */
  bodyFrom?: string;
  /** ...or, with this set too, an object with this key holding it. */
  bodyKey?: string;
}

export interface FormDescriptor {
  newTitle?: string;
  editTitle?: string;
  fields: string[];
  requiredOnCreate?: string[];
  readOnlyOnEdit?: string[];
  confirm?: { field: string; label: string; message: string };
  options?: Record<string, { path: string; valueKey: string }>;
  uiSchema?: Record<string, unknown>;
}

/** A JSON Schema (draft 2020-12) as the entity files hold it; loose on purpose. */
export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

export interface ScreenSummary {
  id: string;
  title: string;
  route: string;
  menu?: MenuEntry;
  permission: Permission;
}

export interface ScreenDescriptor extends ScreenSummary {
  entity: string;
  key: string;
  component?: string;
  api: ResourceApi;
  list: {
    columns: ListColumn[];
    pageSize?: number;
    quickSearch?: boolean;
    newLabel?: string;
    deleteConfirm?: { title: string; text: string };
  };
  form: FormDescriptor;
  rowActions?: RowAction[];
  entitySchema: JsonSchema;
}
