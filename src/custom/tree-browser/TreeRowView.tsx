import type { MouseEvent } from 'react';
import { TREE_LABELS as L } from './messages';
import { TreeIcon } from './TreeIcon';
import { canBeFavorite } from './settings';
import type { TreeRow } from './rows';

interface TreeRowViewProps {
  row: TreeRow;
  active: boolean;
  favorite: boolean;
  onSelect: (id: string) => void;
  onToggle: (id: string) => void;
  onFavorite: (repoKey: string) => void;
}

/** The DOM id of a row's element, for the tree's aria-activedescendant. */
export const rowElementId = (id: string) => `tree-row-${encodeURIComponent(id)}`;

const INDENT_PX = 16;

/** One line of the tree: indentation, the open/close caret, the node's kind and name. */
export function TreeRowView({
  row,
  active,
  favorite,
  onSelect,
  onToggle,
  onFavorite,
}: TreeRowViewProps) {
  const { node } = row;
  const canOpen = node.type !== 'file' && node.hasChild && !(row.state === 'open' && row.empty);
  const toggle = (event: MouseEvent) => {
    event.stopPropagation();
    onToggle(row.id);
  };
  const kind = node.trash
    ? 'trash'
    : node.type === 'repository'
      ? `repository-${node.repoType}`
      : node.type;
  return (
    <div
      id={rowElementId(row.id)}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-selected={active}
      aria-expanded={canOpen ? row.state === 'open' : undefined}
      aria-busy={row.state === 'loading' || undefined}
      className={`tree-row${active ? ' is-active' : ''}${row.empty ? ' is-empty' : ''}`}
      style={{ paddingLeft: row.depth * INDENT_PX }}
      onClick={() => onSelect(row.id)}
      onDoubleClick={canOpen ? toggle : undefined}
      title={node.path ? `${node.repoKey}/${node.path}` : node.repoKey}
    >
      <span
        className={`tree-caret${canOpen ? '' : ' is-leaf'}`}
        onClick={canOpen ? toggle : undefined}
        aria-hidden="true"
      >
        {row.state === 'loading' ? '◌' : canOpen ? (row.state === 'open' ? '▾' : '▸') : ''}
      </span>
      <TreeIcon kind={kind} />
      <span className="tree-text">{node.text}</span>
      {canBeFavorite(node) && (
        <button
          type="button"
          className={`tree-favorite${favorite ? ' is-favorite' : ''}`}
          aria-pressed={favorite}
          aria-label={favorite ? L.removeFavorite(node.repoKey) : L.addFavorite(node.repoKey)}
          onClick={(event) => {
            event.stopPropagation();
            onFavorite(node.repoKey);
          }}
        >
          {favorite ? '★' : '☆'}
        </button>
      )}
    </div>
  );
}
