import { useState } from 'react';
import {
  ariaDescribedByIds,
  optionsList,
  type EnumOptionsType,
  type RJSFSchema,
  type WidgetProps,
} from '@rjsf/utils';

/** Above this many choices a filter box helps find one. */
const FILTER_THRESHOLD = 8;
const NO_CHOICES_LABEL = 'No choices available';
const FILTER_LABEL = 'Filter';

type Choice = { value: unknown; label: string };

/**
 * What may be picked: the enum options rjsf computed (`items.enum`, or `items.oneOf` with
 * `const` and `title`), else the item schema's own, else `ui:options.choices` fetched from
 * an endpoint (a descriptor's `form.options`).
 */
function choicesOf(options: WidgetProps['options'], schema: RJSFSchema): Choice[] {
  const fromRjsf = options.enumOptions as EnumOptionsType[] | undefined;
  if (fromRjsf?.length) return fromRjsf;
  const items = schema.items;
  if (items && typeof items === 'object' && !Array.isArray(items)) {
    const fromItems = optionsList(items as RJSFSchema);
    if (fromItems?.length) return fromItems;
  }
  const fetched = Array.isArray(options.choices) ? (options.choices as string[]) : [];
  return fetched.map((value) => ({ value, label: value }));
}

/**
 * An array of values picked from a list, as a group of checkboxes: every choice is
 * reachable with Tab and toggled with Space. Values the list does not offer (a group
 * deleted since) stay visible so that saving does not drop them silently. rjsf's
 * `checkboxes`, a `select` on a unique-items enum array and Depot's `multiSelect` all
 * render this.
 */
export function MultiSelectWidget({
  id,
  value,
  disabled,
  readonly,
  options,
  schema,
  label,
  rawErrors,
  onChange,
}: WidgetProps) {
  const [filter, setFilter] = useState('');
  const selected: unknown[] = Array.isArray(value) ? value : [];
  const offered = choicesOf(options, schema);
  const isOffered = (v: unknown) => offered.some((choice) => choice.value === v);
  const all = [
    ...offered,
    ...selected.filter((v) => !isOffered(v)).map((v) => ({ value: v, label: String(v) })),
  ];
  const shown = filter
    ? all.filter((choice) => choice.label.toLowerCase().includes(filter.toLowerCase()))
    : all;
  const toggle = (choice: unknown, checked: boolean) =>
    onChange(checked ? [...selected, choice] : selected.filter((v) => v !== choice));

  return (
    <div
      id={id}
      role="group"
      aria-labelledby={`${id}__label`}
      aria-describedby={ariaDescribedByIds(id)}
      aria-invalid={rawErrors && rawErrors.length > 0 ? true : undefined}
      className="multi-select"
    >
      {all.length > FILTER_THRESHOLD && (
        <input
          className="input multi-select-filter"
          type="search"
          aria-label={`${FILTER_LABEL} ${label}`}
          placeholder={FILTER_LABEL}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      )}
      {all.length === 0 && <p className="field-help">{NO_CHOICES_LABEL}</p>}
      <ul className="multi-select-list" hidden={all.length === 0}>
        {shown.map((choice) => (
          <li key={String(choice.value)}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={selected.includes(choice.value)}
                disabled={disabled || readonly}
                onChange={(event) => toggle(choice.value, event.target.checked)}
              />
              <span>{choice.label}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}
