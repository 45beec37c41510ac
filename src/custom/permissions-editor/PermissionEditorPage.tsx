import { useEffect } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { useUnit } from 'effector-react';
import { NOT_FOUND_PATH } from '../../shell/messages';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { TextField } from '../../design/components/TextField';
import { RESOURCES } from './editor';
import {
  $choices,
  $confirming,
  $creating,
  $form,
  $loadError,
  $managerRows,
  $nameError,
  $notFound,
  $saving,
  $stagedResources,
  confirmAccepted,
  confirmCancelled,
  editorOpened,
  nameChanged,
  saveClicked,
  saved,
} from './model';
import { PERMISSION_LABELS as L, PERMISSIONS_PATH, RESOURCE_TITLES } from './messages';
import { PrincipalsPanel } from './PrincipalsPanel';
import { ResourcePanel } from './ResourcePanel';
import { OtherSectionsPanel } from './OtherSectionsPanel';
import './permissions.css';

/**
 * Create and edit a permission target (spec 01 §2 Permission screens, §3, §5): the name, a
 * section per resource type with staged edits, the users and groups with their actions, and
 * the confirmation when some of them have no permissions (they are not saved).
 */
export default function PermissionEditorPage() {
  const { permissionName } = useParams();
  const navigate = useNavigate();
  const [form, choices, creating, loadError, notFound] = useUnit([
    $form,
    $choices,
    $creating,
    $loadError,
    $notFound,
  ]);
  const [nameError, staged, saving, confirming, managerRows] = useUnit([
    $nameError,
    $stagedResources,
    $saving,
    $confirming,
    $managerRows,
  ]);
  const [open, changeName, save, accept, cancelConfirm] = useUnit([
    editorOpened,
    nameChanged,
    saveClicked,
    confirmAccepted,
    confirmCancelled,
  ]);
  const name = permissionName ?? null;
  useEffect(() => {
    open({ name });
  }, [name, open]);
  useEffect(() => saved.watch(() => navigate(PERMISSIONS_PATH)), [navigate]);

  if (notFound) return <Navigate to={NOT_FOUND_PATH} replace />;
  if (loadError)
    return (
      <section className="permission-editor">
        <p role="alert" className="error-text">
          {loadError}
        </p>
      </section>
    );
  if (!form || !choices) return <p role="status">{L.loading}</p>;
  const stagedTitles = staged.map((resource) => RESOURCE_TITLES[resource]).join(', ');

  return (
    <section className="permission-editor" aria-labelledby="permission-editor-title">
      <header className="page-header">
        <h1 id="permission-editor-title">{creating ? L.newTitle : L.editTitle(form.name)}</h1>
      </header>
      <form
        // the name's rule is the spec's message, not the browser's
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <TextField
          label={L.name}
          required
          value={form.name}
          readOnly={!creating}
          error={nameError ?? undefined}
          onChange={(event) => changeName(event.target.value)}
        />
        <h2>{L.resources}</h2>
        {managerRows && <p className="hint">{L.managerNote}</p>}
        {/* a manager sees the resources but may not change them (spec 01 §6) */}
        <fieldset className="permission-resources" disabled={managerRows !== null}>
          {RESOURCES.map((resource) => (
            <ResourcePanel key={resource} resource={resource} repositories={choices.repositories} />
          ))}
        </fieldset>
        <h2>{L.principals}</h2>
        <OtherSectionsPanel sections={form.otherSections} />
        <PrincipalsPanel choices={choices} locked={managerRows} />
        {staged.length > 0 && <p className="hint">{L.stagedHint(stagedTitles)}</p>}
        <div className="form-buttons">
          <button type="submit" className="btn btn-primary" disabled={saving || staged.length > 0}>
            {creating ? L.create : L.save}
          </button>
          <button type="button" className="btn" onClick={() => navigate(PERMISSIONS_PATH)}>
            {L.cancel}
          </button>
        </div>
      </form>
      {confirming && (
        <ConfirmDialog
          title={L.confirmTitle}
          text={L.confirmText(confirming)}
          confirmLabel={L.saveAnyway}
          cancelLabel={L.cancel}
          onConfirm={accept}
          onCancel={cancelConfirm}
        />
      )}
    </section>
  );
}
