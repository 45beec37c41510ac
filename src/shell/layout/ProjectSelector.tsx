import { useUnit } from 'effector-react';
import { Select } from '../../design/components/Select';
import { LABELS } from '../messages';
import {
  $canAdministerProjects,
  $projects,
  $selectedProject,
  DEFAULT_PROJECT_KEY,
  projectSelected,
} from '../project/model';

/**
 * The toolbar's project selector (spec 01 §3 Project context): "All" is the default
 * context; picking a project turns the Administration menu into Project Settings.
 */
export function ProjectSelector() {
  const [projects, selected, canAdminister, select] = useUnit([
    $projects,
    $selectedProject,
    $canAdministerProjects,
    projectSelected,
  ]);
  if (!canAdminister) return null;
  return (
    <Select
      className="project-selector"
      label={LABELS.projectSelector}
      options={[
        { value: DEFAULT_PROJECT_KEY, label: LABELS.allProjects },
        ...projects.map((p) => ({ value: p.project_key, label: p.display_name })),
      ]}
      value={selected?.project_key ?? DEFAULT_PROJECT_KEY}
      onChange={select}
    />
  );
}
