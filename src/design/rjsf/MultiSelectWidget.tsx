import { useState } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

/** Above this many choices a filter box helps find one. */
const FILTER_THRESHOLD = 8;
const NO_CHOICES_LABEL = 'No choices available';
const FILTER_LABEL = 'Filter';

/**
 * An array of strings picked from `ui:options.choices`, as a group of checkboxes: every
 * choice is reachable with Tab and toggled with Space. Values the list does not offer (a
 * group deleted since) stay visible so that saving does not drop them silently.
 */
export function MultiSelectWidget({
  id,
  value,
  disabled,
  readonly,
  options,
  label,
  rawErrors,
  onChange,
}: WidgetProps) {
  const [filter, setFilter] = useState('');
  const selected: string[] = Array.isArray(value) ? value : [];
  const offered = Array.isArray(options.choices) ? (options.choices as string[]) : [];
  const all = [...offered, ...selected.filter((v) => !offered.includes(v))];
  const shown = filter
    ? all.filter((choice) => choice.toLowerCase().includes(filter.toLowerCase()))
    : all;
  const toggle = (choice: string, checked: boolean) =>
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
          <li key={choice}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={selected.includes(choice)}
                disabled={disabled || readonly}
                onChange={(event) => toggle(choice, event.target.checked)}
              />
              <span>{choice}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}
