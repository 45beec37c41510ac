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
 * Who may use a screen: visitors (when anonymous access is on), signed-in users, admins;
 * `manager`: admins, and users who manage a permission target; `projectAdmin`: admins, and
 * the admins of the project selected in the toolbar (spec 01 §6).
 */
export type Permission = 'admin' | 'user' | 'anonymous' | 'manager' | 'projectAdmin';

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
  /** Fieldsets in order; fields in no section come first. */
  sections?: { title: string; fields: string[] }[];
  /** Buttons beside Save that send the valid form to an endpoint (a webhook's Test). */
  actions?: FormAction[];
}

export interface FormAction {
  id: string;
  label: string;
  method: 'POST' | 'PUT';
  path: string;
  /** Shown when the answer carries no message of its own. */
  successMessage?: string;
  failureMessage?: string;
}

/** A JSON Schema (draft 2020-12) as the entity files hold it; loose on purpose. */
export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** The page a screen shows at a path: its list, its new form or its edit form. */
export type ScreenViewName = 'list' | 'new' | 'edit';

/** A further path a bespoke screen serves beside its `route`. */
export interface ScreenPage {
  path: string;
  view?: ScreenViewName;
  title?: string;
  permission?: Permission;
}

/**
 * What the server lists for every screen (`GET /ui/api/v1/schemas/screens`): enough to
 * route, guard, title and show it in the menus before its page opens.
 */
export interface ScreenSummary {
  id: string;
  title: string;
  route: string;
  menu?: MenuEntry;
  permission: Permission;
  /** A bespoke page from the screen registry; without it the engine renders the screen. */
  component?: string;
  pages?: ScreenPage[];
  /** Where a visitor who is not signed in goes instead of login. */
  anonymousTo?: string;
  /** Its item in the Project Settings menu, shown while a project is selected. */
  projectMenu?: Omit<MenuEntry, 'section'>;
  /** Its link in the toolbar's user menu. */
  userMenu?: { label: string };
}

/** A generic screen's full descriptor: the engine renders its list and forms from it. */
export interface ScreenDescriptor extends ScreenSummary {
  entity: string;
  key: string;
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
