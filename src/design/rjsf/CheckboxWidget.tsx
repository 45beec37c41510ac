import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

/** A boolean as one checkbox inside its label; the field template shows no second label. */
export function CheckboxWidget({
  id,
  htmlName,
  value,
  disabled,
  readonly,
  autofocus,
  label,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        id={id}
        name={htmlName || id}
        checked={value === true}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={(event) => onBlur(id, event.target.checked)}
        onFocus={(event) => onFocus(id, event.target.checked)}
      />
      <span>{label}</span>
    </label>
  );
}
