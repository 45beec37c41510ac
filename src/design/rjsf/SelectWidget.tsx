import { MultiSelectWidget } from './MultiSelectWidget';
import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getOptionValueFormat,
  type WidgetProps,
} from '@rjsf/utils';

/**
 * A single choice among a schema's enum values (or `oneOf` consts with titles, or choices
 * fetched for a picker), as a native <select>. Asked for several (an array of unique enum
 * values), it is the checkbox group instead.
 */
export function SelectWidget(props: WidgetProps) {
  if (props.multiple) return <MultiSelectWidget {...props} />;
  const {
    id,
    htmlName,
    value,
    disabled,
    readonly,
    autofocus,
    required,
    options,
    placeholder,
    rawErrors,
  } = props;
  const { onChange, onBlur, onFocus } = props;
  const { emptyValue } = options;
  const enumOptions = options.enumOptions?.length ? options.enumOptions : fetchedChoices(options);
  const format = getOptionValueFormat(options);
  const decode = (raw: string) => enumOptionValueDecoder(raw, enumOptions, format, emptyValue);
  return (
    <select
      id={id}
      name={htmlName || id}
      className="input"
      value={enumOptionSelectedValue(value, enumOptions, false, format, '') as string}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      aria-invalid={rawErrors && rawErrors.length > 0 ? true : undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event) => onChange(decode(event.target.value))}
      onBlur={(event) => onBlur(id, decode(event.target.value))}
      onFocus={(event) => onFocus(id, decode(event.target.value))}
    >
      <option value="">{placeholder ?? ''}</option>
      {enumOptions.map((option, index) => (
        <option
          key={String(option.value)}
          value={enumOptionValueEncoder(option.value, index, format)}
        >
          {option.label}
        </option>
      ))}
    </select>
  );
}

/** A picker's choices, fetched from the endpoint its descriptor names (`form.options`). */
function fetchedChoices(options: WidgetProps['options']) {
  const choices = Array.isArray(options.choices) ? (options.choices as string[]) : [];
  return choices.map((value) => ({ value, label: value }));
}
