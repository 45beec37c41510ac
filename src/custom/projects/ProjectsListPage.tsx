import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import type { Project } from '../../api/projects';
import { ConfirmRemoval } from './ConfirmRemoval';
import { navigateFx } from '../../shell/navigation/model';
import { projectSelected } from '../../shell/project/model';
import { formatSize } from '../storage-summary/format';
import { $allProjects, $limit, $listLoaded, deleteConfirmed, listOpened } from './model';
import { PROJECT_LABELS as L, PROJECT_PATHS } from './messages';
import './projects.css';

const PAGE_SIZE = 50;

/** Administration > Projects: every project, create, open one's settings, delete. */
export default function ProjectsListPage() {
  const [projects, loaded, limit, opened, remove, select, navigate] = useUnit([
    $allProjects,
    $listLoaded,
    $limit,
    listOpened,
    deleteConfirmed,
    projectSelected,
    navigateFx,
  ]);
  const [pending, setPending] = useState<Project | null>(null);
  const [page, setPage] = useState(0);
  useEffect(() => opened(), [opened]);
  const shown = projects.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  const openSettings = (project: Project) => {
    select(project.project_key);
    void navigate({ to: PROJECT_PATHS.overview });
  };

  return (
    <section aria-labelledby="projects-title" className="settings-page project-page">
      <header className="project-page-header">
        <h1 id="projects-title">{L.title}</h1>
        <Link className="btn btn-primary" to={PROJECT_PATHS.create}>
          {L.createProject}
        </Link>
      </header>
      {limit && (
        <p className="field-help">
          {limit.count} / {limit.limit < 0 ? L.unlimited : limit.limit}
        </p>
      )}
      {loaded && projects.length === 0 && (
        <div className="project-empty" role="status">
          <p>{L.empty}</p>
        </div>
      )}
      {projects.length > 0 && (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{L.name}</th>
              <th scope="col">{L.key}</th>
              <th scope="col">{L.description}</th>
              <th scope="col">{L.quotaColumn}</th>
              <th scope="col">
                <span className="visually-hidden">{L.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((project) => (
              <tr key={project.project_key}>
                <td>
                  <button
                    type="button"
                    className="btn btn-link"
                    onClick={() => openSettings(project)}
                  >
                    {project.display_name}
                  </button>
                </td>
                <td>{project.project_key}</td>
                <td>{project.description}</td>
                <td>
                  {project.storage_quota_bytes && project.storage_quota_bytes > 0
                    ? formatSize(project.storage_quota_bytes)
                    : L.noQuota}
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-link"
                    aria-label={`${L.delete} ${project.display_name}`}
                    onClick={() => setPending(project)}
                  >
                    {L.delete}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {projects.length > PAGE_SIZE && (
        <nav className="project-pager" aria-label={L.title}>
          <button
            type="button"
            className="btn"
            disabled={page === 0}
            onClick={() => setPage(page - 1)}
          >
            ‹
          </button>
          <span>
            {page + 1} / {Math.ceil(projects.length / PAGE_SIZE)}
          </span>
          <button
            type="button"
            className="btn"
            disabled={(page + 1) * PAGE_SIZE >= projects.length}
            onClick={() => setPage(page + 1)}
          >
            ›
          </button>
        </nav>
      )}
      <ConfirmRemoval
        subject={pending}
        title={L.deleteProject}
        text={(project) => L.confirmDelete(project.display_name)}
        confirmLabel={L.delete}
        onRemove={remove}
        onClose={() => setPending(null)}
      />
    </section>
  );
}
