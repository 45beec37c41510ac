import type { ErrorSchema, FieldProps, RJSFSchema } from '@rjsf/utils';
import { WIDGET_TEXTS } from './widgetTexts';

type Pair = Record<string, unknown>;

const titleOf = (schema: RJSFSchema | undefined, fallback: string) =>
  (schema && typeof schema === 'object' && schema.title) || fallback;

/**
 * A list of key-value pairs (a webhook's custom headers): an array whose items are objects
 * of two text properties, shown as rows of two inputs with Remove, and Add under them. The
 * item schema's own rules and messages apply ("Header must contain name and value").
 */
export function KeyValueField({
  schema,
  formData,
  fieldPathId,
  errorSchema,
  disabled,
  readonly,
  onChange,
}: FieldProps) {
  const rows: Pair[] = Array.isArray(formData) ? formData : [];
  const itemSchema = (schema.items ?? {}) as RJSFSchema;
  const [keyName, valueName] = Object.keys(itemSchema.properties ?? {});
  const columns = [keyName, valueName].map((name) => ({
    name,
    title: titleOf(itemSchema.properties?.[name] as RJSFSchema, name),
  }));
  const item = titleOf(itemSchema, 'Item');
  const locked = disabled || readonly;
  const errorsAt = (index: number, name?: string): string[] => {
    const row = (errorSchema as Record<number, ErrorSchema> | undefined)?.[index];
    const node = name ? (row as Record<string, ErrorSchema> | undefined)?.[name] : row;
    return (node?.__errors as string[] | undefined) ?? [];
  };
  const change = (next: Pair[]) => onChange(next, fieldPathId.path);
  const edit = (index: number, name: string, text: string) =>
    change(rows.map((row, i) => (i === index ? { ...row, [name]: text || undefined } : row)));

  return (
    <fieldset className="key-value-field" id={fieldPathId.$id}>
      <legend>{titleOf(schema, '')}</legend>
      {rows.map((row, index) => (
        <div className="key-value-row" role="group" aria-label={`${item} ${index + 1}`} key={index}>
          {columns.map(({ name, title }) => (
            <div className="key-value-cell" key={name}>
              <input
                className="input"
                aria-label={`${title} ${index + 1}`}
                value={typeof row[name] === 'string' ? (row[name] as string) : ''}
                disabled={locked}
                aria-invalid={errorsAt(index, name).length > 0 ? true : undefined}
                onChange={(event) => edit(index, name, event.target.value)}
              />
              <FieldMessages messages={errorsAt(index, name)} />
            </div>
          ))}
          <button
            type="button"
            className="btn btn-link"
            aria-label={WIDGET_TEXTS.removeItem(`${item} ${index + 1}`)}
            disabled={locked}
            onClick={() => change(rows.filter((_, i) => i !== index))}
          >
            {WIDGET_TEXTS.remove}
          </button>
          <FieldMessages messages={errorsAt(index)} />
        </div>
      ))}
      <button type="button" className="btn" disabled={locked} onClick={() => change([...rows, {}])}>
        {WIDGET_TEXTS.add(item)}
      </button>
      <FieldMessages messages={(errorSchema?.__errors as string[] | undefined) ?? []} />
    </fieldset>
  );
}

function FieldMessages({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul className="field-error">
      {messages.map((message, index) => (
        <li key={index}>{message}</li>
      ))}
    </ul>
  );
}
