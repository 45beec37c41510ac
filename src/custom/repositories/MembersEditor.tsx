import { useId, useState } from 'react';
import type { ResolvedRepository } from '../../api/repositories';
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
 * remotes, remove, and move up or down. Plain selects and buttons, so every step has a
 * keyboard path.
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
          <label htmlFor={`${id}-available`}>{REPO_LABELS.available}</label>
          <select
            id={`${id}-available`}
            className="input"
            size={6}
            value={toAdd}
            onChange={(e) => setToAdd(e.target.value)}
          >
            {candidates.map((repo) => (
              <option key={repo.repoKey} value={repo.repoKey}>
                {repo.repoKey}
              </option>
            ))}
          </select>
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
          <label htmlFor={`${id}-included`}>{REPO_LABELS.included}</label>
          <select
            id={`${id}-included`}
            className="input"
            size={6}
            value={selected}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => setSelected(e.target.value)}
          >
            {members.map((repo) => (
              <option key={repo.repoKey} value={repo.repoKey}>
                {repo.repoKey}
              </option>
            ))}
          </select>
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
