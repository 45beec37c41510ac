import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getOptionValueFormat,
  type WidgetProps,
} from '@rjsf/utils';

/** A single choice among a schema's enum values, as a native <select>. */
export function SelectWidget(props: WidgetProps) {
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
  const { enumOptions = [], emptyValue } = options;
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
