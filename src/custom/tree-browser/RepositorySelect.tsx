import type { TreeNode } from '../../api/treeBrowser';

interface RepositorySelectProps {
  label: string;
  repositories: TreeNode[];
  value: string;
  onChange: (repoKey: string) => void;
  /** Shown as the only choice when there is none. */
  noneText: string;
}

/** A labelled choice of repository, by key: the target of a copy, move, restore or deploy. */
export function RepositorySelect({
  label,
  repositories,
  value,
  onChange,
  noneText,
}: RepositorySelectProps) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {repositories.length === 0 && <option value="">{noneText}</option>}
        {repositories.map((repo) => (
          <option key={repo.repoKey} value={repo.repoKey}>
            {repo.repoKey}
          </option>
        ))}
      </select>
    </label>
  );
}
