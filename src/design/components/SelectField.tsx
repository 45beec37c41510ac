import { Select, type SelectOption } from './Select';

interface SelectFieldProps {
  label: string;
  options: ReadonlyArray<SelectOption>;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

/** A labelled single choice in a form's field layout (the component library's Select). */
export function SelectField({ label, options, value, onChange, disabled }: SelectFieldProps) {
  return (
    <div className="field">
      <Select
        label={label}
        options={options}
        value={value}
        onChange={onChange}
        isDisabled={disabled}
      />
    </div>
  );
}
