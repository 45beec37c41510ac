/** Fills `{name}` placeholders of a descriptor text ("Edit User {name}", "{count} user(s)"). */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined || values[name] === null ? whole : String(values[name]),
  );
}
