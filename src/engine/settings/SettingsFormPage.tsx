import { useCallback, useEffect, type ReactNode } from 'react';
import { useProvidedScope, useUnit } from 'effector-react';
import { useSearchParams } from 'react-router-dom';
import type { SettingsDescriptor } from '../../api/descriptor';
import { UnsavedChangesGuard } from '../../shell/guards/UnsavedChangesGuard';
import { SchemaForm } from '../form/SchemaForm';
import { LOADING_LABEL, RESET_LABEL, SAVE_LABEL } from '../messages';
import { settingsPayload, type SettingsModel } from './model';

interface SettingsFormPageProps {
  /** The screen's descriptor, as served: its form and its entity schema (schemas/). */
  descriptor: SettingsDescriptor;
  model: SettingsModel;
  /** The page's heading; the descriptor's title unless a bespoke page words its own. */
  title?: string;
  /** What follows the form (the mail page's test button). */
  children?: ReactNode;
}

/**
 * One settings document's page: the descriptor's form over its entity schema, with Save,
 * Reset and the unsaved-changes guard. The engine renders it for a settings screen; a
 * bespoke page (mail) adds what follows the form.
 */
export function SettingsFormPage({ descriptor, model, title, children }: SettingsFormPageProps) {
  const [form, error, busy, dirty] = useUnit([
    model.$form,
    model.$error,
    model.$busy,
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
  useFocusParams(descriptor.form.focusParams, form !== null);

  return (
    <div className="settings-page">
      <h1>{title ?? descriptor.title}</h1>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {form === null ? (
        !error && <p role="status">{LOADING_LABEL}</p>
      ) : (
        <SchemaForm
          form={descriptor.form}
          entitySchema={descriptor.entitySchema}
          mode="edit"
          formData={form}
          disabled={busy}
          onChange={changed}
          // The whole document as edited: a field emptied on purpose is saved empty.
          onSubmit={() => save(settingsPayload(descriptor, form))}
        >
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={!dirty || busy}>
              {SAVE_LABEL}
            </button>
            <button type="button" className="btn" disabled={!dirty || busy} onClick={() => reset()}>
              {RESET_LABEL}
            </button>
          </div>
        </SchemaForm>
      )}
      {form !== null && children}
      <UnsavedChangesGuard isDirty={isDirty} />
    </div>
  );
}

/**
 * Focuses the field a query parameter names (the descriptor's `form.focusParams`), once the
 * form is drawn: `?focusOnBaseUrl=true` opens the general configuration at its base URL.
 */
function useFocusParams(focusParams: Record<string, string> | undefined, drawn: boolean) {
  const [searchParams] = useSearchParams();
  useEffect(() => {
    if (!drawn || !focusParams) return;
    const field = Object.entries(focusParams).find(
      ([param]) => (searchParams.get(param) ?? 'false') !== 'false',
    )?.[1];
    // rjsf names a field's input root_<field>.
    if (field) document.getElementById(`root_${field}`)?.focus();
  }, [drawn, focusParams, searchParams]);
}
