import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

export function TextareaWidget(props: WidgetProps) {
  const {
    id,
    htmlName,
    value,
    disabled,
    readonly,
    autofocus,
    required,
    options,
    rawErrors,
    onChange,
    onBlur,
    onFocus,
  } = props;
  return (
    <textarea
      id={id}
      name={htmlName || id}
      className="input"
      rows={typeof options.rows === 'number' ? options.rows : 4}
      value={value ?? ''}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      aria-invalid={rawErrors && rawErrors.length > 0 ? true : undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event) =>
        onChange(event.target.value === '' ? options.emptyValue : event.target.value)
      }
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}
