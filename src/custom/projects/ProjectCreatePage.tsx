import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { $createError, $creating, $limit, createOpened, createSubmitted } from './model';
import { ProjectFields, fieldErrors, toProject, type ProjectDraft } from './ProjectFields';
import { PROJECT_LABELS as L, PROJECT_PATHS, suggestedKey } from './messages';
import './projects.css';

const EMPTY: ProjectDraft = {
  name: '',
  key: '',
  description: '',
  quotaGb: '',
  manageMembers: true,
  manageResources: true,
};

/** Administration > Projects > Create Project (spec 03 §2), refused at the limit. */
export default function ProjectCreatePage() {
  const [limit, error, creating, opened, submit] = useUnit([
    $limit,
    $createError,
    $creating,
    createOpened,
    createSubmitted,
  ]);
  const [draft, setDraft] = useState(EMPTY);
  const [keyTouched, setKeyTouched] = useState(false);
  const [attempted, setAttempted] = useState(false);
  useEffect(() => opened(), [opened]);

  const atLimit = limit !== null && limit.limit >= 0 && limit.count >= limit.limit;
  const errors = fieldErrors(draft, true);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (Object.keys(errors).length === 0) submit(toProject(draft, true));
  };
  const change = (next: Partial<ProjectDraft>) => {
    const merged = { ...draft, ...next };
    // The key follows the name until the admin types one of their own.
    if (next.name !== undefined && !keyTouched) merged.key = suggestedKey(next.name);
    if (next.key !== undefined) setKeyTouched(true);
    setDraft(merged);
  };

  return (
    <section aria-labelledby="create-project-title" className="settings-page project-page">
      <h1 id="create-project-title">{L.createProject}</h1>
      {atLimit ? (
        <p role="alert" className="error-text">
          {L.limitReached(limit.limit)}
        </p>
      ) : (
        <form noValidate onSubmit={onSubmit} className="project-form">
          <fieldset disabled={creating}>
            <ProjectFields
              draft={draft}
              errors={attempted ? errors : {}}
              onChange={change}
              withKey
            />
          </fieldset>
          {error && (
            <p role="alert" className="error-text">
              {error}
            </p>
          )}
          <div className="form-actions">
            <Link className="btn" to={PROJECT_PATHS.list}>
              {L.cancel}
            </Link>
            <button type="submit" className="btn btn-primary" disabled={creating}>
              {L.create}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
