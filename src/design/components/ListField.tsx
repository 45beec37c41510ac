import { useId } from 'react';
import { ListBox, ListBoxItem, type Key } from 'react-aria-components';
import './controls.css';

interface ListFieldProps {
  label: string;
  /** The items, shown and keyed by their text. */
  items: readonly string[];
  selected: string;
  onSelect: (item: string) => void;
  errorId?: string;
  emptyText?: string;
}

/**
 * A labelled, always open list with one item selected (React Aria's ListBox): arrows move,
 * typeahead finds; what a `<select size>` was, in the design's look.
 */
export function ListField({
  label,
  items,
  selected,
  onSelect,
  errorId,
  emptyText,
}: ListFieldProps) {
  const labelId = useId();
  return (
    <div className="list-field">
      <span id={labelId} className="list-field-label">
        {label}
      </span>
      <ListBox
        aria-labelledby={labelId}
        aria-describedby={errorId}
        className="input list-field-box"
        selectionMode="single"
        selectedKeys={selected ? [selected] : []}
        onSelectionChange={(keys) => {
          const [key] = [...(keys as Set<Key>)];
          onSelect(key === undefined ? '' : String(key));
        }}
        items={items.map((item) => ({ id: item }))}
        renderEmptyState={() => <span className="select-empty">{emptyText ?? ''}</span>}
      >
        {(item) => (
          <ListBoxItem className="select-option" id={item.id} textValue={item.id}>
            {item.id}
          </ListBoxItem>
        )}
      </ListBox>
    </div>
  );
}
