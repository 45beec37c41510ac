import {
  Button,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  Separator,
  type Key,
} from 'react-aria-components';
import './controls.css';

export interface ActionMenuItem {
  id: string;
  label: string;
  /** A line above the item, between groups of actions. */
  separatorBefore?: boolean;
}

interface ActionMenuProps {
  /** The button's text, which names the menu for assistive technology too. */
  label: string;
  items: ReadonlyArray<ActionMenuItem>;
  onAction: (id: string) => void;
}

/**
 * A button that opens a menu of actions (React Aria's MenuTrigger and Menu): arrow keys,
 * typeahead, Home/End, Enter to act, Escape to close and return focus to the button.
 */
export function ActionMenu({ label, items, onAction }: ActionMenuProps) {
  return (
    <MenuTrigger>
      <Button className="btn">
        {label}{' '}
        <span aria-hidden="true" className="select-chevron">
          ▾
        </span>
      </Button>
      <Popover className="select-popover" placement="bottom end" offset={4}>
        <Menu className="select-listbox" onAction={(key: Key) => onAction(String(key))}>
          {items.flatMap((item) => [
            ...(item.separatorBefore
              ? [<Separator key={`${item.id}-separator`} className="menu-separator" />]
              : []),
            <MenuItem key={item.id} id={item.id} className="select-option" textValue={item.label}>
              {item.label}
            </MenuItem>,
          ])}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
