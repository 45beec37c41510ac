import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import './controls.css';

interface TabBarProps<T extends string> {
  /** Names the tab list for assistive technology. */
  label: string;
  names: readonly T[];
  selected: T;
  labelOf: (name: T) => ReactNode;
  onSelect: (name: T) => void;
  /** Tabs shown but not selectable (a search type outside the project context). */
  disabled?: readonly string[];
  className?: string;
  /** The selected tab's content; rendered in the tab panel the selected tab controls. */
  children?: ReactNode;
}

/**
 * A row of tabs, one selected (React Aria's Tabs): arrow keys move between tabs, the panel
 * is labelled by its tab. Only the selected tab's content is rendered.
 */
export function TabBar<T extends string>(props: TabBarProps<T>) {
  const { label, names, selected, labelOf, onSelect, className, children, disabled } = props;
  return (
    <Tabs
      className="tab-bar"
      selectedKey={selected}
      disabledKeys={disabled}
      onSelectionChange={(key: Key) => onSelect(String(key) as T)}
    >
      <TabList aria-label={label} className={`tab-list${className ? ` ${className}` : ''}`}>
        {names.map((name) => (
          <Tab key={name} id={name} className="tab">
            {labelOf(name)}
          </Tab>
        ))}
      </TabList>
      {/* A panel for every tab, the others hidden and empty: each tab's aria-controls names
          an element that exists, whichever tab a transition has selected for a moment. */}
      {names.map((name) => (
        <TabPanel key={name} id={name} className="tab-panel" shouldForceMount>
          {name === selected ? children : null}
        </TabPanel>
      ))}
    </Tabs>
  );
}
