// stamp: a5bf2eac4d851439
// Generated from schemas/meta/screen.meta.schema.json by `npm run schemas:types`: do not edit.
// The server (server/schemas/registry.ts) and the console (src/api/descriptor.ts) both use it.

export type Permission = 'admin' | 'user' | 'anonymous' | 'manager' | 'projectAdmin';

export interface ListDescriptor {
  columns: ListColumn[];
  /** The field that names a row; the screen's `key` when left out. Each of `lists` needs one. */
  key?: string;
  /** The grid's accessible name; the screen's title when left out. */
  label?: string;
  pageSize?: number;
  /** false: every row given shows at once, for a page that fetches more itself (Load more). */
  pagination?: boolean;
  /** The bulk delete button's label; `Delete` when left out. */
  deleteLabel?: string;
  quickSearch?: boolean;
  newLabel?: string;
  /** What the list says while it has no rows at all: a title and a line on how to make the first. */
  emptyState?: {
    title: string;
    text: string;
  };
  deleteConfirm?: {
    title: string;
    text: string;
  };
}

export interface ListColumn {
  field: string;
  header: string;
  link?: boolean;
  /** The cell links to this console page, each `{field}` filled from the row and URL-encoded (`/builds/{build_name}`); `link` goes to the edit page instead. */
  linkTo?: string;
  width?: number;
  /** date: a time (ISO text, or milliseconds since the epoch); count: the length of a list; url: an http(s) address, a link that opens in a new tab. */
  format?: ListColumnFormat;
  /** A feature's cell (src/screens/listCells.ts) that shows the row's column itself, e.g. a live state the list's rows do not hold. */
  cell?: string;
}

/** date: a time (ISO text, or milliseconds since the epoch); count: the length of a list; url: an http(s) address, a link that opens in a new tab. */
export type ListColumnFormat = 'date' | 'count' | 'text' | 'url';

export interface ScreenPage {
  path: string;
  view?: ScreenViewName;
  title?: string;
  permission?: 'admin' | 'user' | 'anonymous' | 'manager' | 'projectAdmin';
}

export type ScreenViewName = 'list' | 'new' | 'edit';

export interface MenuEntry {
  section: 'Application' | 'Administration';
  group: string;
  label: string;
  order?: number;
}

/** The item in the Project Settings menu, which replaces Administration while a project is selected. */
export interface ProjectMenuEntry {
  group: string;
  label: string;
  order?: number;
}

/** A link in the toolbar's user menu. */
export interface UserMenuEntry {
  label: string;
}

export interface ResourceApi {
  list?: ApiCall;
  get?: ApiCall;
  create?: ApiCall;
  update?: ApiCall;
  deleteMany?: ApiCall;
}

export interface ApiCall {
  method: HttpMethod;
  path: string;
  bodyKey?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface FormDescriptor {
  newTitle?: string;
  editTitle?: string;
  /** What a save says where the spec words it ('Policy saved successfully'); `{key}` is the item's key. "{Entity} '{key}' created/updated" when left out. */
  savedMessage?: string;
  /** What the edit page says when the item cannot be read and the answer gives no message of its own, where the spec words it ('Error while fetch policy. Please check Artifactory logs.'); the generic error message when left out. */
  loadFailedMessage?: string;
  /** What a failed save says when the answer gives no message of its own, where the spec words it ('Error while save policy. Please check Artifactory logs.'); the generic error message when left out. */
  saveFailedMessage?: string;
  /** What the form says when a field's choices cannot be read, where the spec words it ('Error while fetch repositories list. Please check Artifactory logs.'); nothing is said when left out (the field offers no choice). */
  choicesFailedMessage?: string;
  fields: string[];
  requiredOnCreate?: string[];
  /** Query parameters that focus a field when the form opens with them set (`{ "focusOnBaseUrl": "baseUrl" }`: `?focusOnBaseUrl=true`). */
  focusParams?: Record<string, string>;
  readOnlyOnEdit?: string[];
  confirm?: {
    field: string;
    label: string;
    message: string;
  };
  /** Pickers fed by calls: a field's choices are `valueKey` of each item its call answers (under `listKey` when the answer is an object); a list of calls gives their choices together, in order, each once. */
  options?: Record<string, ChoiceSource | ChoiceSource[]>;
  uiSchema?: Record<string, unknown>;
  /** Fieldsets of the form, in order, each with its title and the form fields it holds; fields in no section come first. */
  sections?: FormSection[];
  /** Components of the console's screen registry shown under the edit form (a webhook's delivery history); each reads the item's key from the route's `key` parameter. */
  panels?: string[];
  /** Buttons beside Save that send the valid form to an endpoint and show its answer (a webhook's Test). */
  actions?: FormAction[];
}

export interface ChoiceSource {
  path: string;
  /** The field of each item that is the choice; without it, each item is the choice itself (a list of names). */
  valueKey?: string;
  /** The field of the answer that holds the items, when the call answers an object (`builds` of `{ "builds": [...], "total": 3 }`); the answer itself otherwise. */
  listKey?: string;
}

export interface FormSection {
  title: string;
  fields: string[];
}

export interface FormAction {
  id: string;
  label: string;
  method: 'POST' | 'PUT';
  path: string;
  successMessage?: string;
  failureMessage?: string;
  /** Shown when no answer came from the server itself: a gateway's 502 or 504, or no response at all. */
  unreachableMessage?: string;
}

/** The engine stores this screen's entity: the server registers the calls of `api` itself and enforces the body schema, unique keys, readOnlyOnEdit, write-only secrets, ETags, the permission and an audit entry per change (docs/adding-a-screen.md). */
export interface StoreDescriptor {
  /** collection: documents under their key (list, get, create, update, deleteMany). single: one settings document (get, update). */
  kind?: 'collection' | 'single';
  /** For single: the name the document is kept under; the entity id when left out. */
  settingsKey?: string;
  /** Who may call list and get when it is not who may write: public, reader (signed in, or anonymous when anonymous access is on), user, admin. */
  readPermission?: 'public' | 'reader' | 'user' | 'admin';
  /** insensitive: two keys that differ only in case are the same key. */
  keyCase?: 'sensitive' | 'insensitive';
  /** The name of the server hooks that add this entity's own behaviour (server/modules/entities/hooks/). */
  hooks?: string;
  /** The server's answers where the spec words them otherwise: {field} is a field of the document, {count} how many were deleted. */
  messages?: {
    exists?: string;
    notFound?: string;
    readOnlyOnEdit?: string;
    deleted?: string;
  };
}

export interface RowAction {
  id: string;
  label: string;
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  confirm?: string;
  bodyFrom?: string;
  bodyKey?: string;
}

export interface ScreenDescriptorFields {
  id: string;
  title: string;
  entity?: string;
  key?: string;
  route: string;
  /** A list screen's edit page, where the spec names it otherwise: `{key}` stands for the item's key (`/admin/configuration/webhooks/edit/{key}`). `route/{key}/edit` when left out. */
  editRoute?: string;
  permission: Permission;
  /** A bespoke page from the console's screen registry; without it the engine renders the list and the forms. */
  component?: string;
  /** Forms a bespoke screen opens in a dialog, by name (`promote`): the engine's form draws `fields` of the entity schema `entity` with `uiSchema`; the screen's component sends what it submits. */
  dialogs?: Record<
    string,
    {
      entity: string;
      fields: string[];
      uiSchema?: Record<string, unknown>;
    }
  >;
  /** Grids a bespoke screen shows, by name (`versions`): the engine's grid draws `columns` of the rows the screen's component fetches, with their links, selection, delete confirmation and empty state. */
  lists?: Record<string, ListDescriptor>;
  /** More paths a bespoke screen (or a settings document's form, or a list's new form: `view` new) serves beside its route, in react-router syntax (`:param`, a trailing `*`). */
  pages?: ScreenPage[];
  /** Where a visitor who is not signed in goes instead of the login page. */
  anonymousTo?: string;
  menu?: MenuEntry;
  /** The item in the Project Settings menu, which replaces Administration while a project is selected. */
  projectMenu?: ProjectMenuEntry;
  /** A link in the toolbar's user menu. */
  userMenu?: UserMenuEntry;
  api?: ResourceApi;
  list?: ListDescriptor;
  form?: FormDescriptor;
  /** The engine stores this screen's entity: the server registers the calls of `api` itself and enforces the body schema, unique keys, readOnlyOnEdit, write-only secrets, ETags, the permission and an audit entry per change (docs/adding-a-screen.md). */
  store?: StoreDescriptor;
  rowActions?: RowAction[];
}

export type SingleDocumentDescriptor = ScreenDescriptorFields &
  Required<Pick<ScreenDescriptorFields, 'store'>> & {
    store: Required<Pick<NonNullable<ScreenDescriptorFields['store']>, 'kind'>> & {
      kind: 'single';
    };
  } & Required<Pick<ScreenDescriptorFields, 'entity' | 'api' | 'form'>> & {
    api: Required<Pick<NonNullable<ScreenDescriptorFields['api']>, 'get' | 'update'>>;
  };

export type CollectionDescriptor = ScreenDescriptorFields &
  Required<Pick<ScreenDescriptorFields, 'entity'>> &
  Required<Pick<ScreenDescriptorFields, 'key' | 'list' | 'api' | 'form'>> & {
    api: Required<
      Pick<
        NonNullable<ScreenDescriptorFields['api']>,
        'list' | 'get' | 'create' | 'update' | 'deleteMany'
      >
    >;
  };

export type BespokeDescriptor = ScreenDescriptorFields &
  Required<Pick<ScreenDescriptorFields, 'component'>>;

/** A screen descriptor, as schemas/screens/*.screen.json hold them. */
export type ScreenDescriptor = SingleDocumentDescriptor | CollectionDescriptor | BespokeDescriptor;
