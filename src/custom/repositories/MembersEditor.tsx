import { useId, useState } from 'react';
import type { ResolvedRepository } from '../../api/repositories';
import { ListField } from '../../design/components/ListField';
import { REPO_LABELS } from './messages';

interface MembersEditorProps {
  available: ResolvedRepository[];
  members: ResolvedRepository[];
  error?: string;
  onChange: (members: ResolvedRepository[]) => void;
}

const move = <T,>(list: T[], from: number, to: number) => {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
};

/**
 * A virtual repository's members, in resolution order: add from the available locals and
 * remotes, remove, and move up or down. Two lists of the design and buttons, so every step
 * has a keyboard path.
 */
export function MembersEditor({ available, members, error, onChange }: MembersEditorProps) {
  const id = useId();
  const [toAdd, setToAdd] = useState<string>('');
  const [selected, setSelected] = useState<string>('');
  const memberKeys = new Set(members.map((m) => m.repoKey.toLowerCase()));
  const candidates = available.filter((repo) => !memberKeys.has(repo.repoKey.toLowerCase()));
  const index = members.findIndex((m) => m.repoKey === selected);

  const add = () => {
    const repo = candidates.find((c) => c.repoKey === toAdd);
    if (repo) onChange([...members, repo]);
    setToAdd('');
  };
  const remove = () => {
    onChange(members.filter((m) => m.repoKey !== selected));
    setSelected('');
  };

  return (
    <div className="field">
      <div className="repo-members">
        <div>
          <ListField
            label={REPO_LABELS.available}
            items={candidates.map((repo) => repo.repoKey)}
            selected={toAdd}
            onSelect={setToAdd}
          />
        </div>
        <div className="member-buttons">
          <button type="button" className="btn" disabled={!toAdd} onClick={add}>
            {REPO_LABELS.add}
          </button>
          <button type="button" className="btn" disabled={index < 0} onClick={remove}>
            {REPO_LABELS.remove}
          </button>
          <button
            type="button"
            className="btn"
            disabled={index <= 0}
            onClick={() => onChange(move(members, index, index - 1))}
          >
            {REPO_LABELS.moveUp}
          </button>
          <button
            type="button"
            className="btn"
            disabled={index < 0 || index >= members.length - 1}
            onClick={() => onChange(move(members, index, index + 1))}
          >
            {REPO_LABELS.moveDown}
          </button>
        </div>
        <div>
          <ListField
            label={REPO_LABELS.included}
            items={members.map((repo) => repo.repoKey)}
            selected={selected}
            onSelect={setSelected}
            errorId={error ? `${id}-error` : undefined}
          />
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
