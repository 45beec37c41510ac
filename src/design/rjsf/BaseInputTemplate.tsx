import type { ChangeEvent, FocusEvent } from 'react';
import { ariaDescribedByIds, getInputProps, type BaseInputTemplateProps } from '@rjsf/utils';

/** Every <input> based widget (text, password, email, url, number) renders through this. */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const {
    id,
    htmlName,
    value,
    readonly,
    disabled,
    autofocus,
    onBlur,
    onFocus,
    onChange,
    onChangeOverride,
  } = props;
  const { options, schema, type, rawErrors, placeholder, required } = props;
  const inputProps = getInputProps(schema, type, options);
  const emptyValue = options.emptyValue;
  const handleChange = (event: ChangeEvent<HTMLInputElement>) =>
    onChange(event.target.value === '' ? emptyValue : event.target.value);
  // Values to pick from that still leave the field free to type (`ui:options.suggestions`).
  const suggestions = Array.isArray(options.suggestions) ? (options.suggestions as string[]) : [];
  const listId = suggestions.length > 0 ? `${id}__suggestions` : undefined;
  const input = (
    <input
      id={id}
      name={htmlName || id}
      className="input"
      {...inputProps}
      value={value ?? ''}
      placeholder={placeholder}
      required={required}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      // Password managers must not fill a new user's password with the admin's own.
      autoComplete={inputProps.type === 'password' ? 'new-password' : undefined}
      aria-invalid={rawErrors && rawErrors.length > 0 ? true : undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={onChangeOverride || handleChange}
      onBlur={(event: FocusEvent<HTMLInputElement>) => onBlur(id, event.target.value)}
      onFocus={(event: FocusEvent<HTMLInputElement>) => onFocus(id, event.target.value)}
      list={listId}
    />
  );
  if (!listId) return input;
  return (
    <>
      {input}
      <datalist id={listId}>
        {suggestions.map((suggestion) => (
          <option key={suggestion} value={suggestion} />
        ))}
      </datalist>
    </>
  );
}
