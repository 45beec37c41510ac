import {
  descriptionId,
  getUiOptions,
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  type RJSFSchema,
} from '@rjsf/utils';

/** What one item of an array is called, from its schema's title ("Property"). */
const itemTitle = (schema: RJSFSchema) =>
  (typeof schema.items === 'object' && !Array.isArray(schema.items) && schema.items.title) ||
  'Item';

/**
 * A list of items under its title and description, with an "Add {item}" button: rjsf's own
 * buttons are glyph icons of a theme Depot does not load, so they would show as empty boxes.
 * rjsf's field template shows no description for an array (it draws no label for one), so
 * the description is drawn here, and an empty list says so in the words of the uiSchema's
 * `ui:options.emptyText` when the descriptor gives them.
 */
export function ArrayFieldTemplate({
  canAdd,
  disabled,
  readonly,
  fieldPathId,
  items,
  onAddClick,
  schema,
  uiSchema,
  title,
}: ArrayFieldTemplateProps) {
  const options = getUiOptions(uiSchema);
  const description = (options.description as string | undefined) || schema.description;
  const emptyText = typeof options.emptyText === 'string' ? options.emptyText : undefined;
  const describedBy = description ? descriptionId(fieldPathId) : undefined;
  return (
    <fieldset className="array-field" id={fieldPathId.$id} aria-describedby={describedBy}>
      {title && <legend>{title}</legend>}
      {description && (
        <div id={describedBy} className="field-description">
          {description}
        </div>
      )}
      {items.length > 0 && <div className="array-field-items">{items}</div>}
      {items.length === 0 && emptyText && <p className="array-field-empty">{emptyText}</p>}
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
