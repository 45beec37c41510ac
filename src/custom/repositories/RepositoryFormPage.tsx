import { useCallback, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useProvidedScope, useUnit } from 'effector-react';
import type { RepoKind, RepositoryFormModel } from '../../api/repositories';
import { CheckboxField } from '../../design/components/CheckboxField';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { Select } from '../../design/components/Select';
import { TextField } from '../../design/components/TextField';
import { UnsavedChangesGuard } from '../../shell/guards/UnsavedChangesGuard';
import {
  $available,
  $dirty,
  $fieldErrors,
  $keyChecking,
  $layouts,
  $loading,
  $mode,
  $model,
  $packageTypes,
  $saving,
  formClosed,
  formOpened,
  modelChanged,
  packageTypePicked,
  saveClicked,
  testRemoteClicked,
} from './formModel';
import { DOCKER_HUB_HINT } from '../../../server/formats/docker/docker-hub.ts';
import { MembersEditor } from './MembersEditor';
import { PackageTypePicker } from './PackageTypePicker';
import { DISCARD_CHANGES_TEXT, KIND_LABELS, REPO_LABELS, listPath } from './messages';
import { MAVEN_LAYOUT_TYPES, projectKeyPrefix } from './formRules';
import { ENVIRONMENTS } from '../../api/projects';
import './repositories.css';

/** The "none" choice of the deployment target: a key no repository can have (keys have no space). */
const NO_DEPLOYMENT_REPO = ' none';

type Section = 'general' | 'typeSpecific' | 'basic' | 'remote' | 'virtual' | 'advanced';

/** A new repository (package type first, then the form) or an existing one's form. */
export default function RepositoryFormPage({
  kind,
  repoKey,
}: {
  kind: RepoKind;
  repoKey?: string;
}) {
  const [model, mode, types, loading, opened, closed, picked] = useUnit([
    $model,
    $mode,
    $packageTypes,
    $loading,
    formOpened,
    formClosed,
    packageTypePicked,
  ]);
  const scope = useProvidedScope();
  const isDirty = useCallback(() => (scope ? scope.getState($dirty) : $dirty.getState()), [scope]);
  useEffect(() => {
    opened({ kind, key: repoKey });
    return () => closed();
  }, [kind, repoKey, opened, closed]);

  const title = repoKey ? REPO_LABELS.editRepository(repoKey) : REPO_LABELS.newRepository(kind);
  let body: ReactNode;
  if (loading && !model) body = <p role="status">{REPO_LABELS.loading}</p>;
  else if (!model && mode === 'create') body = <PackageTypePicker types={types} onPick={picked} />;
  else if (model) body = <RepositoryForm model={model} />;
  return (
    <section aria-labelledby="repo-form-title" className="form-screen">
      <header className="page-header">
        <h1 id="repo-form-title">{title}</h1>
      </header>
      <UnsavedChangesGuard isDirty={isDirty} text={DISCARD_CHANGES_TEXT} />
      {body}
      {!model && (
        <Link className="btn" to={listPath(kind)}>
          {REPO_LABELS.cancel}
        </Link>
      )}
    </section>
  );
}

function RepositoryForm({ model }: { model: RepositoryFormModel }) {
  const [mode, errors, layouts, available, saving, checking, types] = useUnit([
    $mode,
    $fieldErrors,
    $layouts,
    $available,
    $saving,
    $keyChecking,
    $packageTypes,
  ]);
  const [changed, save, testRemote] = useUnit([modelChanged, saveClicked, testRemoteClicked]);
  const id = useId();
  const set = (section: Section, field: string, value: unknown) =>
    changed({ ...model, [section]: { ...(model[section] ?? {}), [field]: value } });
  const text = (section: Section, field: string) =>
    String((model[section] as Record<string, unknown> | undefined)?.[field] ?? '');
  const [confirmingAnonymous, setConfirmingAnonymous] = useState(false);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // A remote Docker repository without credentials pulls anonymously: asked first (spec 03).
    if (pullsAnonymously(model)) setConfirmingAnonymous(true);
    else save();
  };
  const packageText =
    types.find((t) => t.value === model.typeSpecific.repoType)?.text ?? model.typeSpecific.repoType;
  // In a project's context a new key starts with the project's prefix (spec 03 §5).
  const projectKey = model.general.projectKey;
  const keyPrefix = mode === 'create' && projectKey ? projectKeyPrefix(projectKey) : undefined;
  const members = model.virtual?.resolvedRepositories ?? [];
  const localMembers = members.filter((m) => m.type === 'local');

  return (
    <form className="repo-form" noValidate onSubmit={onSubmit}>
      <fieldset disabled={saving}>
        <legend>{REPO_LABELS.general}</legend>
        <p>
          {REPO_LABELS.packageType}: <strong>{packageText}</strong> ({KIND_LABELS[model.type]})
        </p>
        <TextField
          label={REPO_LABELS.repoKey}
          required
          prefix={keyPrefix}
          value={model.general.repoKey.slice(keyPrefix?.length ?? 0)}
          readOnly={mode === 'edit'}
          autoFocus={mode === 'create'}
          error={errors['general.repoKey']}
          onChange={(e) => set('general', 'repoKey', (keyPrefix ?? '') + e.target.value)}
        />
        {checking && <p className="field-help">{REPO_LABELS.checkingKey}</p>}
      </fieldset>

      <fieldset disabled={saving}>
        <legend>{REPO_LABELS.basic}</legend>
        <div className="field">
          <Select
            label={REPO_LABELS.layout}
            options={layouts.map((layout) => ({ value: layout.name, label: layout.name }))}
            value={text('basic', 'layout') || null}
            isInvalid={Boolean(errors['basic.layout'])}
            describedBy={errors['basic.layout'] ? `${id}-layout-error` : undefined}
            onChange={(layout) => set('basic', 'layout', layout)}
          />
          {errors['basic.layout'] && (
            <p id={`${id}-layout-error`} className="field-error">
              {errors['basic.layout']}
            </p>
          )}
        </div>
        <TextArea
          label={REPO_LABELS.publicDescription}
          value={text('basic', 'publicDescription')}
          error={errors['basic.publicDescription']}
          onChange={(value) => set('basic', 'publicDescription', value)}
        />
        <TextArea
          label={REPO_LABELS.internalDescription}
          value={text('basic', 'internalDescription')}
          error={errors['basic.internalDescription']}
          onChange={(value) => set('basic', 'internalDescription', value)}
        />
        <TextField
          label={REPO_LABELS.includesPattern}
          value={text('basic', 'includesPattern')}
          error={errors['basic.includesPattern']}
          onChange={(e) => set('basic', 'includesPattern', e.target.value)}
        />
        <TextField
          label={REPO_LABELS.excludesPattern}
          value={text('basic', 'excludesPattern')}
          error={errors['basic.excludesPattern']}
          onChange={(e) => set('basic', 'excludesPattern', e.target.value)}
        />
        {projectKey && (
          // Where the project's roles act on it: a role holds only in its environments.
          <div className="field">
            <Select
              label={REPO_LABELS.environment}
              options={ENVIRONMENTS.map((environment) => ({
                value: environment,
                label: environment,
              }))}
              value={model.basic.environments?.[0] ?? 'DEV'}
              isInvalid={Boolean(errors['basic.environments'])}
              onChange={(environment) => set('basic', 'environments', [environment])}
            />
            {errors['basic.environments'] && (
              <p className="field-error">{errors['basic.environments']}</p>
            )}
          </div>
        )}
      </fieldset>

      {MAVEN_LAYOUT_TYPES.has(model.typeSpecific.repoType) && model.type !== 'virtual' && (
        <fieldset disabled={saving}>
          <legend>{REPO_LABELS.maven}</legend>
          <CheckboxField
            label={REPO_LABELS.handleReleases}
            checked={model.typeSpecific.handleReleases !== false}
            onChange={(e) => set('typeSpecific', 'handleReleases', e.target.checked)}
          />
          <CheckboxField
            label={REPO_LABELS.handleSnapshots}
            checked={model.typeSpecific.handleSnapshots !== false}
            onChange={(e) => set('typeSpecific', 'handleSnapshots', e.target.checked)}
          />
          {model.type === 'local' && (
            <>
              <NumberField
                label={REPO_LABELS.maxUniqueSnapshots}
                value={model.typeSpecific.maxUniqueSnapshots}
                error={errors['typeSpecific.maxUniqueSnapshots']}
                onChange={(value) => set('typeSpecific', 'maxUniqueSnapshots', value)}
              />
              <p className="field-help">{REPO_LABELS.maxUniqueSnapshotsHelp}</p>
              <CheckboxField
                label={REPO_LABELS.suppressPomConsistencyChecks}
                checked={model.typeSpecific.suppressPomConsistencyChecks === true}
                onChange={(e) =>
                  set('typeSpecific', 'suppressPomConsistencyChecks', e.target.checked)
                }
              />
            </>
          )}
        </fieldset>
      )}

      {model.type === 'remote' && (
        <fieldset disabled={saving}>
          <legend>{REPO_LABELS.remote}</legend>
          <div className="inline-actions">
            <TextField
              label={REPO_LABELS.url}
              required
              type="url"
              value={text('remote', 'url')}
              error={errors['remote.url']}
              onChange={(e) => set('remote', 'url', e.target.value)}
            />
            <button
              type="button"
              className="btn"
              disabled={!model.remote?.url}
              onClick={() => testRemote()}
            >
              {REPO_LABELS.test}
            </button>
          </div>
          <TextField
            label={REPO_LABELS.username}
            autoComplete="off"
            value={text('remote', 'username')}
            error={errors['remote.username']}
            onChange={(e) => set('remote', 'username', e.target.value)}
          />
          <TextField
            label={REPO_LABELS.password}
            type="password"
            autoComplete="new-password"
            value={text('remote', 'password')}
            error={errors['remote.password']}
            onChange={(e) => set('remote', 'password', e.target.value)}
          />
          {model.typeSpecific.repoType === 'docker' && !model.remote?.username && (
            <p className="repo-warning" role="note">
              {DOCKER_HUB_HINT}
            </p>
          )}
          <CheckboxField
            label={REPO_LABELS.offline}
            checked={model.remote?.offline === true}
            onChange={(e) => set('remote', 'offline', e.target.checked)}
          />
          <NumberField
            label={REPO_LABELS.missedRetrievalCachePeriodSecs}
            value={model.remote?.missedRetrievalCachePeriodSecs}
            error={errors['remote.missedRetrievalCachePeriodSecs']}
            onChange={(value) => set('remote', 'missedRetrievalCachePeriodSecs', value)}
          />
          <NumberField
            label={REPO_LABELS.socketTimeoutMillis}
            value={model.remote?.socketTimeoutMillis}
            error={errors['remote.socketTimeoutMillis']}
            onChange={(value) => set('remote', 'socketTimeoutMillis', value)}
          />
        </fieldset>
      )}

      {model.type === 'virtual' && (
        <fieldset disabled={saving}>
          <legend>{REPO_LABELS.virtual}</legend>
          <MembersEditor
            available={available}
            members={members}
            error={errors['virtual.resolvedRepositories']}
            onChange={(next) => set('virtual', 'resolvedRepositories', next)}
          />
          <div className="field">
            <Select
              label={REPO_LABELS.defaultDeploymentRepo}
              options={[
                { value: NO_DEPLOYMENT_REPO, label: REPO_LABELS.none },
                ...localMembers.map((repo) => ({ value: repo.repoKey, label: repo.repoKey })),
              ]}
              value={text('virtual', 'defaultDeploymentRepo') || NO_DEPLOYMENT_REPO}
              isInvalid={Boolean(errors['virtual.defaultDeploymentRepo'])}
              onChange={(key) =>
                set('virtual', 'defaultDeploymentRepo', key === NO_DEPLOYMENT_REPO ? '' : key)
              }
            />
            {errors['virtual.defaultDeploymentRepo'] && (
              <p className="field-error">{errors['virtual.defaultDeploymentRepo']}</p>
            )}
          </div>
        </fieldset>
      )}

      <fieldset disabled={saving}>
        <legend>{REPO_LABELS.advanced}</legend>
        <CheckboxField
          label={REPO_LABELS.allowContentBrowsing}
          checked={model.advanced?.allowContentBrowsing === true}
          onChange={(e) => set('advanced', 'allowContentBrowsing', e.target.checked)}
        />
        <p className="repo-warning" role="note">
          {REPO_LABELS.allowContentBrowsingWarning}
        </p>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {REPO_LABELS.save}
        </button>
        <Link className="btn" to={listPath(model.type)}>
          {REPO_LABELS.cancel}
        </Link>
      </div>
      {confirmingAnonymous && (
        <ConfirmDialog
          title={REPO_LABELS.anonymousDockerTitle}
          text={REPO_LABELS.anonymousDockerText}
          confirmLabel={REPO_LABELS.save}
          cancelLabel={REPO_LABELS.cancel}
          onConfirm={() => {
            setConfirmingAnonymous(false);
            save();
          }}
          onCancel={() => setConfirmingAnonymous(false)}
        />
      )}
    </form>
  );
}

/** A remote Docker repository with no user name for its upstream pulls as anonymous. */
const pullsAnonymously = (model: RepositoryFormModel) =>
  model.type === 'remote' &&
  model.typeSpecific.repoType === 'docker' &&
  !String(model.remote?.username ?? '').trim();

function TextArea(props: {
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        className="input"
        rows={2}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && <p className="field-error">{props.error}</p>}
    </div>
  );
}

function NumberField(props: {
  label: string;
  value: number | undefined;
  error?: string;
  onChange: (value: number | undefined) => void;
}) {
  return (
    <TextField
      label={props.label}
      type="number"
      min={0}
      value={props.value ?? ''}
      error={props.error}
      onChange={(e) => props.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
    />
  );
}
