import { useEffect, useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { ConfirmRemoval } from './ConfirmRemoval';
import { $currentUser } from '../../shell/session/model';
import {
  $members,
  $overviewBusy,
  $project,
  $settingsError,
  $storage,
  deleteConfirmed,
  overviewSaved,
} from './model';
import { ProjectFields, fieldErrors, toDraft, toProject, type ProjectDraft } from './ProjectFields';
import { ProjectSettingsPage } from './ProjectSettingsPage';
import { QuotaBar } from './QuotaBar';
import { PROJECT_LABELS as L } from './messages';

/** Project Settings > Overview: what the project is; an admin edits or deletes it. */
export default function ProjectOverviewPage() {
  return (
    <ProjectSettingsPage title={L.overview}>
      <Overview />
    </ProjectSettingsPage>
  );
}

function Overview() {
  const [project, members, storage, user, error, busy, save, remove] = useUnit([
    $project,
    $members,
    $storage,
    $currentUser,
    $settingsError,
    $overviewBusy,
    overviewSaved,
    deleteConfirmed,
  ]);
  const [draft, setDraft] = useState<ProjectDraft | null>(null);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => setDraft(project && toDraft(project)), [project]);
  if (!project || !draft) return null;

  // Only an admin changes a project itself; its project admins see it.
  const readOnly = !user?.admin;
  const errors = fieldErrors(draft, false);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy && Object.keys(errors).length === 0) save(toProject(draft, false));
  };
  return (
    <>
      <dl className="project-facts">
        <div>
          <dt>{L.members}</dt>
          <dd>{members.users.length + members.groups.length}</dd>
        </div>
        <div>
          <dt>{L.repositories}</dt>
          <dd>{storage?.repositories.length ?? 0}</dd>
        </div>
      </dl>
      {storage && <QuotaBar storage={storage} />}
      <form noValidate onSubmit={onSubmit} className="project-form">
        <ProjectFields
          draft={draft}
          errors={errors}
          onChange={(next) => setDraft({ ...draft, ...next })}
          withKey={false}
          readOnly={readOnly}
          disabled={busy}
        />
        {error && (
          <p role="alert" className="error-text">
            {error}
          </p>
        )}
        {!readOnly && (
          <div className="form-actions">
            <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
              {L.deleteProject}
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {L.save}
            </button>
          </div>
        )}
      </form>
      <ConfirmRemoval
        subject={confirming ? project : null}
        title={L.deleteProject}
        text={(subject) => L.confirmDelete(subject.display_name)}
        confirmLabel={L.delete}
        onRemove={remove}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
