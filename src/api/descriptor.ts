/**
 * The screen descriptor format, as the server serves it: `GET /ui/api/v1/schemas/screens/{id}`
 * answers with `entitySchema` bundled in. The types are generated from the meta-schema
 * (schemas/meta/screen.meta.schema.json, `npm run schemas:types`), one definition for the
 * server and the console; this file only names the views of it the console uses.
 */
import type {
  CollectionDescriptor,
  ResourceApi as ResourceCalls,
  ScreenDescriptorFields,
  SingleDocumentDescriptor,
} from '../../schemas/meta/screen-descriptor.generated';

export type {
  ApiCall,
  ChoiceSource,
  FormAction,
  FormDescriptor,
  FormSection,
  HttpMethod,
  ListColumn,
  ListDescriptor,
  MenuEntry,
  Permission,
  ProjectMenuEntry,
  RowAction,
  ScreenPage,
  ScreenViewName,
  UserMenuEntry,
} from '../../schemas/meta/screen-descriptor.generated';

/** A CRUD screen's calls: all five, as a list screen has them. */
export type ResourceApi = Required<ResourceCalls>;

/** A JSON Schema (draft 2020-12) as the entity files hold it; loose on purpose. */
export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/**
 * What the screen list (`GET /ui/api/v1/schemas/screens`) answers for each screen: enough to
 * route, guard, title and show it in the menus before its page opens. Who may use a screen
 * (`permission`): visitors (when anonymous access is on), signed-in users, admins; `manager`:
 * admins, and users who manage a permission target; `projectAdmin`: admins, and the admins
 * of the project selected in the toolbar (spec 01 §6). A `component` names a bespoke page of
 * the screen registry; without one the engine renders the screen: a list with its forms, or
 * one settings document's form when `store.kind` is `single` (the server sends only the kind).
 */
export type ScreenSummary = Pick<
  ScreenDescriptorFields,
  | 'id'
  | 'title'
  | 'route'
  | 'editRoute'
  | 'menu'
  | 'permission'
  | 'component'
  | 'pages'
  | 'anonymousTo'
  | 'projectMenu'
  | 'userMenu'
  | 'store'
>;

/** A list-and-form screen's descriptor with its entity schema: the engine renders it. */
export type ScreenDescriptor = CollectionDescriptor & {
  api: ResourceApi;
  entitySchema: JsonSchema;
};

/** One settings document's descriptor with its entity schema: the engine renders its form. */
export type SettingsDescriptor = SingleDocumentDescriptor & { entitySchema: JsonSchema };

/** A dialog of a bespoke screen (`dialogs.<id>`), with its entity schema bundled. */
export type DialogDescriptor = NonNullable<ScreenDescriptorFields['dialogs']>[string] & {
  entitySchema: JsonSchema;
};

/** What `GET /ui/api/v1/schemas/screens/{id}` answers for a screen the engine renders. */
export type LoadedDescriptor = ScreenDescriptor | SettingsDescriptor;

/** Whether a screen is one settings document (general, mail, security settings). */
export const isSettingsScreen = (screen: Pick<ScreenSummary, 'store'>) =>
  screen.store?.kind === 'single';

export const isSettingsDescriptor = (
  descriptor: LoadedDescriptor,
): descriptor is SettingsDescriptor => isSettingsScreen(descriptor);
