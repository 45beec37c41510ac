import type { KyInstance } from 'ky';
import { call, http } from './client';
import { isUnreachable } from './ApiError';
import type { ApiCall, ChoiceSource, FormAction, ResourceApi, RowAction } from './descriptor';

export type Row = Record<string, unknown>;

/**
 * Fills `{name}` placeholders from `values`, each URL-encoded; a missing value is an error
 * rather than a request to a wrong URL.
 */
export function fillPath(path: string, values: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') {
      throw new Error(`No value for "{${name}}" in ${path}`);
    }
    return encodeURIComponent(String(value));
  });
}

/** The one data provider behind every CRUD screen, driven by a descriptor's `api` block. */
export interface ResourceClient {
  list(): Promise<Row[]>;
  get(key: string): Promise<Row>;
  create(entity: Row): Promise<Row | undefined>;
  update(key: string, entity: Row): Promise<Row | undefined>;
  deleteMany(keys: string[]): Promise<void>;
}

/**
 * Builds the resource client. `keyField` is the descriptor's `key` (e.g. `name`), so the
 * placeholders in `get`/`update` paths are filled from it.
 */
export function createResourceClient(
  api: ResourceApi,
  keyField: string,
  client: KyInstance = http,
): ResourceClient {
  const send = <T>(c: ApiCall, values: Row, json?: unknown) =>
    call<T>(c.method, fillPath(c.path, values), json === undefined ? {} : { json }, client);
  return {
    list: async () => (await send<Row[] | undefined>(api.list, {})) ?? [],
    get: (key) => send<Row>(api.get, { [keyField]: key }),
    create: (entity) => send<Row | undefined>(api.create, entity, entity),
    update: (key, entity) =>
      send<Row | undefined>(api.update, { ...entity, [keyField]: key }, entity),
    deleteMany: (keys) => {
      const bodyKey = api.deleteMany.bodyKey;
      return send<void>(api.deleteMany, {}, bodyKey ? { [bodyKey]: keys } : keys);
    },
  };
}

/** Runs a descriptor's row action on one row; placeholders come from the row's fields. */
export function runRowAction(
  action: RowAction,
  row: Row,
  client: KyInstance = http,
): Promise<unknown> {
  // Some calls take the row they act on in the body: as a list (unlockUsers: ["jo"]), or
  // as one field of an object (reInvite: {"userName": "jo"}).
  const value = action.bodyFrom ? row[action.bodyFrom] : undefined;
  const json = action.bodyKey ? { [action.bodyKey]: value } : [value];
  const options = action.bodyFrom ? { json } : {};
  return call(action.method, fillPath(action.path, row), options, client);
}

/**
 * The choices of a form's `options` field: GET `source.path`; the items are the answer, or
 * its `listKey` field; each choice is an item's `valueKey`, or the item itself without one.
 */
export async function fetchChoices(
  source: ChoiceSource,
  client: KyInstance = http,
): Promise<string[]> {
  const answer = await call<unknown>('GET', source.path, {}, client);
  const listed = source.listKey ? (answer as Row | undefined)?.[source.listKey] : answer;
  const items = Array.isArray(listed) ? (listed as unknown[]) : [];
  const { valueKey } = source;
  return items
    .map((item) => (valueKey ? (item as Row | null)?.[valueKey] : item))
    .filter((value) => value !== undefined && value !== null && typeof value !== 'object')
    .map(String);
}

/** What a successful answer says of itself: a text body, `info`, `message` or `feedbackMsg.info`. */
export function answerMessage(body: unknown): string | undefined {
  const text = (value: unknown) =>
    typeof value === 'string' && value.trim() !== '' ? value : undefined;
  if (typeof body === 'string') return text(body);
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const feedback = b.feedbackMsg as Record<string, unknown> | undefined;
  return text(b.info) ?? text(b.message) ?? text(feedback?.info);
}

/**
 * Sends a form's valid payload to a descriptor's form action (a webhook's Test); answers
 * the server's own message, if it gave one. Placeholders come from the payload.
 */
export async function runFormAction(
  action: FormAction,
  payload: Row,
  client: KyInstance = http,
): Promise<string | undefined> {
  const path = fillPath(action.path, payload);
  // An action that words "no answer" itself says so instead of the error dialog.
  const handledByCaller = action.unreachableMessage ? isUnreachable : undefined;
  const options = { json: payload, handledByCaller };
  return answerMessage(await call<unknown>(action.method, path, options, client));
}
