import {
  Button,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
  type Key,
} from 'react-aria-components';
import './controls.css';

export interface SelectOption<T extends string = string> {
  value: T;
  label: string;
}

interface SelectProps<T extends string> {
  label: string;
  /** The label is read by assistive technology but not shown (a toolbar's compact picker). */
  hideLabel?: boolean;
  options: ReadonlyArray<SelectOption<T>>;
  value: T | null;
  onChange: (value: T) => void;
  placeholder?: string;
  isDisabled?: boolean;
  isInvalid?: boolean;
  isRequired?: boolean;
  className?: string;
  /** Lets a form template point its own label and description at the trigger. */
  id?: string;
  name?: string;
  describedBy?: string;
  autoFocus?: boolean;
  onBlur?: () => void;
  onFocus?: () => void;
}

/**
 * One choice among a few (React Aria's Select): a button that opens a listbox, with the
 * listbox keyboard paths (arrows, typeahead, Home/End, Escape) and a hidden native select
 * carrying `name` for form submission.
 */
export function Select<T extends string>(props: SelectProps<T>) {
  const { label, hideLabel, options, value, onChange, className } = props;
  return (
    <AriaSelect
      className={`select-field${className ? ` ${className}` : ''}`}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => key !== null && onChange(String(key) as T)}
      isDisabled={props.isDisabled}
      isInvalid={props.isInvalid}
      isRequired={props.isRequired}
      placeholder={props.placeholder ?? ''}
      name={props.name}
      autoFocus={props.autoFocus}
      onBlur={props.onBlur}
      onFocus={props.onFocus}
      aria-label={hideLabel ? label : undefined}
      aria-describedby={props.describedBy}
    >
      {hideLabel ? null : <Label className="select-label">{label}</Label>}
      <Button id={props.id} className="input select-trigger">
        <SelectValue className="select-value" />
        <span aria-hidden="true" className="select-chevron">
          ▾
        </span>
      </Button>
      <Popover className="select-popover" offset={4}>
        <ListBox className="select-listbox" items={options.map((o) => ({ ...o, id: o.value }))}>
          {(option) => (
            <ListBoxItem className="select-option" id={option.value} textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
