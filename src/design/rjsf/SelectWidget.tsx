import { MultiSelectWidget } from './MultiSelectWidget';
import { Select } from '../components/Select';
import { WIDGET_TEXTS } from './widgetTexts';
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
 * fetched for a picker), as the component library's Select; the field template's label
 * names it. Asked for several (an array of unique enum values), it is the checkbox group.
 */
export function SelectWidget(props: WidgetProps) {
  if (props.multiple) return <MultiSelectWidget {...props} />;
  const { id, htmlName, value, disabled, readonly, autofocus, required, options } = props;
  const { placeholder, rawErrors, label, onChange, onBlur, onFocus } = props;
  const { emptyValue } = options;
  const enumOptions = options.enumOptions?.length ? options.enumOptions : fetchedChoices(options);
  const format = getOptionValueFormat(options);
  const decode = (raw: string) => enumOptionValueDecoder(raw, enumOptions, format, emptyValue);
  const selected = enumOptionSelectedValue(value, enumOptions, false, format, '') as string;
  return (
    <Select
      id={id}
      name={htmlName || id}
      label={label || id}
      hideLabel
      options={[
        // an optional field can be cleared again, as a native select's blank option allowed;
        // the descriptor's placeholder says what no choice means ("No proxy: connect directly")
        ...(required ? [] : [{ value: '', label: placeholder || WIDGET_TEXTS.notSet }]),
        ...enumOptions.map((option, index) => ({
          value: String(enumOptionValueEncoder(option.value, index, format)),
          label: option.label,
        })),
      ]}
      value={selected === '' && required ? null : selected}
      placeholder={placeholder}
      isRequired={required}
      isDisabled={disabled || readonly}
      autoFocus={autofocus}
      isInvalid={Boolean(rawErrors && rawErrors.length > 0)}
      describedBy={ariaDescribedByIds(id)}
      onChange={(raw) => onChange(decode(raw))}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

/** A picker's choices, fetched from the endpoint its descriptor names (`form.options`). */
function fetchedChoices(options: WidgetProps['options']) {
  const choices = Array.isArray(options.choices) ? (options.choices as string[]) : [];
  return choices.map((value) => ({ value, label: value }));
}
