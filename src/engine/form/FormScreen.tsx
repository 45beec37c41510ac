import { Suspense, useCallback, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useProvidedScope, useUnit } from 'effector-react';
import type { ScreenDescriptor } from '../../api/descriptor';
import { UnsavedChangesGuard } from '../../shell/guards/UnsavedChangesGuard';
import { useScreenRegistry } from '../screenRegistryContext';
import { fillTemplate } from '../template';
import { CANCEL_LABEL, LOADING_LABEL, SAVE_LABEL } from '../messages';
import { SchemaForm } from './SchemaForm';
import type { FormMode } from './formSchema';
import {
  $choices,
  $dirty,
  $formData,
  $initialData,
  $loadError,
  $saving,
  $serverErrors,
  $busyActions,
  formActionClicked,
  formChanged,
  formClosed,
  formOpened,
  formSubmitted,
} from './model';

interface FormScreenProps {
  descriptor: ScreenDescriptor;
  mode: FormMode;
  entityKey?: string;
}

/** A descriptor's new or edit page: the form, Save and Cancel, and the unsaved-changes guard. */
export default function FormScreen({ descriptor, mode, entityKey }: FormScreenProps) {
  const [initial, loadError, data, choices, serverErrors, saving, busyActions] = useUnit([
    $initialData,
    $loadError,
    $formData,
    $choices,
    $serverErrors,
    $saving,
    $busyActions,
  ]);
  const [opened, closed, changed, submitted, actionClicked] = useUnit([
    formOpened,
    formClosed,
    formChanged,
    formSubmitted,
    formActionClicked,
  ]);
  const scope = useProvidedScope();
  const isDirty = useCallback(() => (scope ? scope.getState($dirty) : $dirty.getState()), [scope]);

  useEffect(() => {
    opened({ descriptor, mode, key: entityKey });
    return () => closed();
  }, [descriptor, mode, entityKey, opened, closed]);

  const title =
    mode === 'create'
      ? (descriptor.form.newTitle ?? descriptor.title)
      : fillTemplate(descriptor.form.editTitle ?? descriptor.title, {
          [descriptor.key]: entityKey,
        });

  return (
    <section aria-labelledby="form-title" className="form-screen">
      <header className="page-header">
        <h1 id="form-title">{title}</h1>
      </header>
      <UnsavedChangesGuard isDirty={isDirty} />
      {initial === null && loadError !== null ? (
        <p role="alert" className="error-text">
          {loadError}
        </p>
      ) : initial === null ? (
        <p role="status">{LOADING_LABEL}</p>
      ) : (
        <SchemaForm
          form={descriptor.form}
          entitySchema={descriptor.entitySchema}
          mode={mode}
          formData={data}
          choices={choices}
          serverErrors={serverErrors}
          disabled={saving}
          onChange={changed}
          onSubmit={submitted}
          onAction={(action, payload) => actionClicked({ action, payload })}
          busyActions={busyActions}
        >
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {SAVE_LABEL}
            </button>
            <Link className="btn" to={descriptor.route}>
              {CANCEL_LABEL}
            </Link>
          </div>
        </SchemaForm>
      )}
      {mode === 'edit' &&
        initial !== null &&
        (descriptor.form.panels ?? []).map((name) => (
          <FormPanel key={name} name={name} descriptor={descriptor} />
        ))}
    </section>
  );
}

/** A component of the screen registry the descriptor shows under its edit form. */
function FormPanel({ name, descriptor }: { name: string; descriptor: ScreenDescriptor }) {
  const Panel = useScreenRegistry().get(name);
  return (
    <Suspense fallback={<p role="status">{LOADING_LABEL}</p>}>
      <Panel screen={descriptor} view="edit" />
    </Suspense>
  );
}
