import { useId, type InputHTMLAttributes } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Shown under the input and announced with it. */
  error?: string;
  /** Fixed text before the input, part of the value but not editable (a project's prefix). */
  prefix?: string;
}

/** A labelled text input in the design system's look. */
export function TextField({ label, error, required, prefix, ...inputProps }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const input = (
    <input
      id={id}
      className="input"
      required={required}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
      {...inputProps}
    />
  );
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="required" aria-hidden="true">
            *
          </span>
        )}
      </label>
      {prefix ? (
        <div className="input-with-prefix">
          <span className="input-prefix" id={`${id}-prefix`}>
            {prefix}
          </span>
          {input}
        </div>
      ) : (
        input
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
