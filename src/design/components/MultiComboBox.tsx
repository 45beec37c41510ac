import { useState } from 'react';
import {
  Button,
  ComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Tag,
  TagGroup,
  TagList,
  type Key,
} from 'react-aria-components';
import './controls.css';

interface MultiComboBoxProps {
  label: string;
  /** Every choice; those already chosen are left out of the list. */
  choices: readonly string[];
  values: readonly string[];
  onChange: (values: string[]) => void;
  emptyText?: string;
}

/**
 * Several values chosen from a long list (React Aria's ComboBox with a TagGroup): type to
 * filter, Enter or a click adds the value as a tag, Backspace or Delete on a tag removes it.
 */
export function MultiComboBox(props: MultiComboBoxProps) {
  const { label, choices, values, onChange, emptyText } = props;
  // A pick mounts a fresh combobox (empty input, list closed) that keeps the focus: clearing
  // a controlled input instead makes React Aria reopen the list over the tags.
  const [picks, setPicks] = useState(0);
  const remaining = choices.filter((choice) => !values.includes(choice));
  const add = (key: Key | null) => {
    if (key === null) return;
    onChange([...values, String(key)]);
    setPicks((count) => count + 1);
  };
  const remove = (keys: Set<Key>) => onChange(values.filter((value) => !keys.has(value)));
  return (
    <div className="multi-combobox">
      <ComboBox
        className="select-field"
        key={picks}
        autoFocus={picks > 0}
        selectedKey={null}
        onSelectionChange={add}
        defaultFilter={(text, typed) => text.toLowerCase().includes(typed.toLowerCase())}
      >
        <Label className="select-label">{label}</Label>
        <div className="combobox-row">
          <Input className="input combobox-input" />
          <Button className="combobox-button" aria-label={label}>
            <span aria-hidden="true">▾</span>
          </Button>
        </div>
        <Popover className="select-popover" offset={4}>
          <ListBox
            className="select-listbox"
            items={remaining.map((value) => ({ id: value }))}
            renderEmptyState={() => <div className="select-empty">{emptyText ?? ''}</div>}
          >
            {(item) => (
              <ListBoxItem className="select-option" id={item.id} textValue={item.id}>
                {item.id}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      {values.length > 0 && (
        <TagGroup aria-label={label} onRemove={remove} className="tag-group">
          <TagList className="tag-list" items={values.map((value) => ({ id: value }))}>
            {(item) => (
              <Tag id={item.id} textValue={item.id} className="tag">
                {item.id}
                {/* React Aria names it "Remove <value>" in the user's language */}
                <Button slot="remove" className="tag-remove">
                  <span aria-hidden="true">×</span>
                </Button>
              </Tag>
            )}
          </TagList>
        </TagGroup>
      )}
    </div>
  );
}
