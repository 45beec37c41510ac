import { useUnit } from 'effector-react';
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
    <label className="project-selector">
      <span>{LABELS.projectSelector}</span>
      <select
        value={selected?.project_key ?? DEFAULT_PROJECT_KEY}
        onChange={(event) => select(event.target.value)}
      >
        <option value={DEFAULT_PROJECT_KEY}>{LABELS.allProjects}</option>
        {projects.map((project) => (
          <option key={project.project_key} value={project.project_key}>
            {project.display_name}
          </option>
        ))}
      </select>
    </label>
  );
}
