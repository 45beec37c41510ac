import type { TreeNode } from '../../api/treeBrowser';
import { Select } from '../../design/components/Select';

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
  const options = repositories.map((repo) => ({ value: repo.repoKey, label: repo.repoKey }));
  return (
    <Select
      label={label}
      options={options}
      value={value || null}
      onChange={onChange}
      placeholder={repositories.length === 0 ? noneText : undefined}
      isDisabled={repositories.length === 0}
    />
  );
}
