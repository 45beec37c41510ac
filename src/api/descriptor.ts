/**
 * The screen descriptor format, as the server serves it: `GET /ui/api/v1/schemas/screens/{id}`
 * answers with `entitySchema` bundled in. The types are generated from the meta-schema
 * (schemas/meta/screen.meta.schema.json, `npm run schemas:types`), one definition for the
 * server and the console.
 */
import type {
  CollectionDescriptor,
  ResourceApi as ResourceCalls,
  ScreenDescriptorFields,
} from '../../schemas/meta/screen-descriptor.generated';

export type {
  ApiCall,
  FormDescriptor,
  HttpMethod,
  ListColumn,
  MenuEntry,
  Permission,
  RowAction,
} from '../../schemas/meta/screen-descriptor.generated';

/** A CRUD screen's calls: all five, as a list screen has them. */
export type ResourceApi = Required<ResourceCalls>;

/** A JSON Schema (draft 2020-12) as the entity files hold it; loose on purpose. */
export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** What the screen list (`GET /schemas/screens`) answers for each screen. */
export type ScreenSummary = Pick<
  ScreenDescriptorFields,
  'id' | 'title' | 'route' | 'menu' | 'permission'
>;

/**
 * A list-and-form screen's descriptor with its entity schema. Who may use a screen
 * (`permission`): visitors (when anonymous access is on), signed-in users, admins; and
 * `manager`: admins, and users who manage a permission target (spec 01 §6).
 */
export type ScreenDescriptor = CollectionDescriptor & {
  api: ResourceApi;
  entitySchema: JsonSchema;
};
