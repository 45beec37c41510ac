import { useEffect, type ReactNode } from 'react';
import { useUnit } from 'effector-react';
import { $selectedProject } from '../../shell/project/model';
import { settingsClosed, settingsOpened } from './model';
import { PROJECT_LABELS as L } from './messages';
import './projects.css';

/**
 * The frame of one project's settings pages: the page acts on the project selected in the
 * toolbar; with "All" selected there is none, and the page says to pick one.
 */
export function ProjectSettingsPage({ title, children }: { title: string; children: ReactNode }) {
  const [project, opened, closed] = useUnit([$selectedProject, settingsOpened, settingsClosed]);
  useEffect(() => {
    opened();
    return () => closed();
  }, [opened, closed]);
  return (
    <section aria-labelledby="project-settings-title" className="settings-page project-page">
      <h1 id="project-settings-title">
        {title}
        {project && <span className="project-page-name"> · {project.display_name}</span>}
      </h1>
      {project ? children : <p role="status">{L.selectProject}</p>}
    </section>
  );
}
