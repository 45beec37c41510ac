import { useCallback, useEffect } from 'react';
import Form, { type IChangeEvent } from '@rjsf/core';
import { useProvidedScope, useUnit } from 'effector-react';
import { depotTemplates } from '../../design/rjsf';
import { formValidator } from '../../engine/form/validator';
import { transformErrors } from '../../engine/form/transformErrors';
import { UnsavedChangesGuard } from '../../shell/guards/UnsavedChangesGuard';
import {
  $dirty,
  $error,
  $form,
  $saving,
  formChanged,
  pageOpened,
  resetClicked,
  saveClicked,
} from './model';
import { SECURITY_LABELS as L } from './messages';
import { securityConfigSchema, securityConfigUiSchema, type SecurityConfigForm } from './schema';

const templates = depotTemplates();

/**
 * Administration > Security > General: anonymous access, hiding unauthorized resources,
 * remember me, the lock policy, the password policy and MFA (docs/security-config.md).
 */
export default function SecurityConfigPage() {
  const [form, error, saving, dirty] = useUnit([$form, $error, $saving, $dirty]);
  const [opened, changed, save, reset] = useUnit([
    pageOpened,
    formChanged,
    saveClicked,
    resetClicked,
  ]);
  const scope = useProvidedScope();
  const isDirty = useCallback(() => (scope ? scope.getState($dirty) : $dirty.getState()), [scope]);
  useEffect(() => opened(), [opened]);

  return (
    <div className="security-config">
      <h1>{L.title}</h1>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {form === null ? (
        !error && <p role="status">{L.loading}</p>
      ) : (
        <Form<SecurityConfigForm>
          schema={securityConfigSchema}
          uiSchema={securityConfigUiSchema}
          formData={form}
          validator={formValidator}
          templates={templates}
          transformErrors={transformErrors}
          showErrorList={false}
          noHtml5Validate
          liveValidate="onChange"
          disabled={saving}
          onChange={(event: IChangeEvent<SecurityConfigForm>) => changed(event.formData ?? {})}
          onSubmit={(event: IChangeEvent<SecurityConfigForm>) => save(event.formData ?? {})}
        >
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={!dirty || saving}>
              {L.save}
            </button>
            <button type="button" className="btn" disabled={!dirty} onClick={() => reset()}>
              {L.reset}
            </button>
          </div>
        </Form>
      )}
      <UnsavedChangesGuard isDirty={isDirty} />
    </div>
  );
}
