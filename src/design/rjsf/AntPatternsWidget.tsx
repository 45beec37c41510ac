import { useState } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { WIDGET_TEXTS } from './widgetTexts';

const toText = (value: unknown) => (Array.isArray(value) ? value.join(', ') : '');
const toPatterns = (text: string) =>
  text
    .split(',')
    .map((pattern) => pattern.trim())
    .filter(Boolean);

/**
 * An array of Ant patterns (`org/**`, `*.jar`) typed as one comma-separated line, as the
 * spec's include and exclude patterns are. The schema's `items` (a pattern, its message)
 * check each one; their messages show under the line.
 */
export function AntPatternsWidget({
  id,
  htmlName,
  value,
  disabled,
  readonly,
  autofocus,
  placeholder,
  rawErrors,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  // The typed text, with its commas and spaces, stays as typed while it means the same list.
  const [text, setText] = useState(toText(value));
  const shown = toText(toPatterns(text)) === toText(value) ? text : toText(value);
  return (
    <input
      id={id}
      name={htmlName || id}
      className="input"
      type="text"
      value={shown}
      placeholder={placeholder || WIDGET_TEXTS.antPatternsHelp}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      aria-invalid={rawErrors && rawErrors.length > 0 ? true : undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(event) => {
        setText(event.target.value);
        const patterns = toPatterns(event.target.value);
        onChange(patterns.length > 0 ? patterns : undefined);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}
