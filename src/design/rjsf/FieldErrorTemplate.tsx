import { errorId, type FieldErrorProps } from '@rjsf/utils';

/** The field's messages, with the id the control's aria-describedby points at. */
export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const messages = errors.filter(Boolean);
  if (messages.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className="field-error">
      {messages.map((message, index) => (
        <li key={index}>{message}</li>
      ))}
    </ul>
  );
}
