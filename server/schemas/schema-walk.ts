import type { JsonSchema } from './registry.ts';
import { pointerOf } from './problems.ts';
import { SAME_INSTANCE, SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES } from './keywords.ts';

export interface SchemaNode {
  schema: JsonSchema;
  pointer: string;
  /**
   * The properties known for the instance this node describes: its own `properties`, and
   * for a branch (if/then/else, allOf, ...) also those of the schema it is part of.
   */
  knownProperties: Set<string>;
  /** Whether that instance may hold properties none of them names. */
  open: boolean;
}

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every subschema of `root` (itself included), depth first, with its JSON pointer. */
export function walkSchema(root: JsonSchema): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  const visit = (schema: JsonSchema, steps: (string | number)[], inherited?: SchemaNode) => {
    const own = Object.keys(isSchema(schema.properties) ? schema.properties : {});
    const knownProperties = new Set([...(inherited?.knownProperties ?? []), ...own]);
    const closed =
      (schema.additionalProperties === false || schema.unevaluatedProperties === false) &&
      schema.patternProperties === undefined;
    const open = (inherited?.open ?? true) && !closed;
    const node: SchemaNode = { schema, pointer: pointerOf(...steps), knownProperties, open };
    nodes.push(node);
    const child = (value: unknown, keyword: string, more: (string | number)[]) => {
      if (!isSchema(value)) return;
      visit(
        value,
        [...steps, keyword, ...more],
        SAME_INSTANCE.includes(keyword) ? node : undefined,
      );
    };
    for (const keyword of SCHEMA_VALUES) child(schema[keyword], keyword, []);
    for (const keyword of SCHEMA_LISTS) {
      const list = schema[keyword];
      if (Array.isArray(list)) list.forEach((item, index) => child(item, keyword, [index]));
    }
    for (const keyword of SCHEMA_MAPS) {
      const map = schema[keyword];
      if (isSchema(map))
        for (const [name, value] of Object.entries(map)) child(value, keyword, [name]);
    }
  };
  visit(root, []);
  return nodes;
}
