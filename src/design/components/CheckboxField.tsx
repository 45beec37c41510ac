import type { InputHTMLAttributes } from 'react';

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
}

/** A checkbox wrapped in its label, so the whole text is the click target. */
export function CheckboxField({ label, ...inputProps }: CheckboxFieldProps) {
  return (
    <div className="field">
      <label className="checkbox">
        <input type="checkbox" {...inputProps} />
        <span>{label}</span>
      </label>
    </div>
  );
}
