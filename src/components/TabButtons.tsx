interface TabButtonsProps<T extends string> {
  names: readonly T[];
  selected: T;
  labelOf: (name: T) => string;
  onSelect: (name: T) => void;
  className: string;
}

/** A row of tabs, one selected: the node's detail tabs, a declaration's build tools. */
export function TabButtons<T extends string>({
  names,
  selected,
  labelOf,
  onSelect,
  className,
}: TabButtonsProps<T>) {
  return (
    <div role="tablist" className={className}>
      {names.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          aria-selected={name === selected}
          className={`tree-tab${name === selected ? ' is-active' : ''}`}
          onClick={() => onSelect(name)}
        >
          {labelOf(name)}
        </button>
      ))}
    </div>
  );
}
