import type { ArrayFieldItemTemplateProps, ArrayFieldTemplateProps, RJSFSchema } from '@rjsf/utils';

/** What one item of an array is called, from its schema's title ("Property"). */
const itemTitle = (schema: RJSFSchema) =>
  (typeof schema.items === 'object' && !Array.isArray(schema.items) && schema.items.title) ||
  'Item';

/**
 * A list of items under its title, with an "Add {item}" button: rjsf's own buttons are
 * glyph icons of a theme Depot does not load, so they would show as empty boxes.
 */
export function ArrayFieldTemplate({
  canAdd,
  disabled,
  readonly,
  fieldPathId,
  items,
  onAddClick,
  schema,
  title,
}: ArrayFieldTemplateProps) {
  return (
    <fieldset className="array-field" id={fieldPathId.$id}>
      {title && <legend>{title}</legend>}
      {items.length > 0 && <div className="array-field-items">{items}</div>}
      {canAdd && (
        <button
          type="button"
          className="btn array-field-add"
          onClick={onAddClick}
          disabled={disabled || readonly}
        >
          Add {itemTitle(schema)}
        </button>
      )}
    </fieldset>
  );
}

/** One item with a Remove button named after it ("Remove Property 2"). */
export function ArrayFieldItemTemplate({
  children,
  buttonsProps,
  hasToolbar,
  index,
  schema,
  disabled,
  readonly,
}: ArrayFieldItemTemplateProps) {
  const name = `${schema.title ?? 'Item'} ${index + 1}`;
  return (
    <div className="array-field-item" role="group" aria-label={name}>
      <div className="array-field-item-body">{children}</div>
      {hasToolbar && buttonsProps.hasRemove && (
        <button
          type="button"
          className="btn btn-link array-field-remove"
          aria-label={`Remove ${name}`}
          onClick={buttonsProps.onRemoveItem}
          disabled={disabled || readonly}
        >
          Remove
        </button>
      )}
    </div>
  );
}
