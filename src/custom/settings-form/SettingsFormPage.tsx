import { useCallback, useEffect, type ReactNode } from 'react';
import Form, { type IChangeEvent } from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useProvidedScope, useUnit } from 'effector-react';
import { depotTemplates } from '../../design/rjsf';
import { formValidator } from '../../engine/form/validator';
import { transformErrors } from '../../engine/form/transformErrors';
import { UnsavedChangesGuard } from '../../shell/guards/UnsavedChangesGuard';
import type { SettingsForm, SettingsModel } from './model';

const templates = depotTemplates();
const LABELS = { save: 'Save', reset: 'Reset', loading: 'Loading…' } as const;

interface SettingsFormPageProps {
  title: string;
  model: SettingsModel;
  schema: RJSFSchema;
  uiSchema?: UiSchema;
  /** What follows the form (the mail page's test button). */
  children?: ReactNode;
}

/** An rjsf form over one settings document, with Save, Reset and the unsaved-changes guard. */
export function SettingsFormPage({
  title,
  model,
  schema,
  uiSchema,
  children,
}: SettingsFormPageProps) {
  const [form, error, saving, dirty] = useUnit([
    model.$form,
    model.$error,
    model.$saving,
    model.$dirty,
  ]);
  const [opened, changed, save, reset] = useUnit([
    model.pageOpened,
    model.formChanged,
    model.saveClicked,
    model.resetClicked,
  ]);
  const scope = useProvidedScope();
  const isDirty = useCallback(
    () => (scope ? scope.getState(model.$dirty) : model.$dirty.getState()),
    [scope, model],
  );
  useEffect(() => opened(), [opened]);

  return (
    <div className="settings-page">
      <h1>{title}</h1>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {form === null ? (
        !error && <p role="status">{LABELS.loading}</p>
      ) : (
        <Form<SettingsForm>
          schema={schema}
          uiSchema={{ ...uiSchema, 'ui:submitButtonOptions': { norender: true } }}
          formData={form}
          validator={formValidator}
          templates={templates}
          transformErrors={transformErrors}
          showErrorList={false}
          noHtml5Validate
          liveValidate="onChange"
          disabled={saving}
          onChange={(event: IChangeEvent<SettingsForm>) => changed(event.formData ?? {})}
          onSubmit={(event: IChangeEvent<SettingsForm>) => save(event.formData ?? {})}
        >
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={!dirty || saving}>
              {LABELS.save}
            </button>
            <button type="button" className="btn" disabled={!dirty} onClick={() => reset()}>
              {LABELS.reset}
            </button>
          </div>
        </Form>
      )}
      {form !== null && children}
      <UnsavedChangesGuard isDirty={isDirty} />
    </div>
  );
}
