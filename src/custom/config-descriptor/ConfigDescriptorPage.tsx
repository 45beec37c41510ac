import { useCallback, useEffect, useId, type FormEvent } from 'react';
import { useProvidedScope, useUnit } from 'effector-react';
import { UnsavedChangesGuard } from '../../shell/guards/UnsavedChangesGuard';
import {
  $canSave,
  $dirty,
  $fetchError,
  $busy,
  $xml,
  configPageMounted,
  resetClicked,
  saveClicked,
  xmlChanged,
} from './model';
import { CONFIG_DESCRIPTOR_LABELS as L } from './messages';
import './config-descriptor.css';

/**
 * Administration > Advanced > Config Descriptor (spec 03): the whole configuration as XML
 * (docs/config-as-code.md), a warning, Reset and Save.
 */
export default function ConfigDescriptorPage() {
  const [xml, fetchError, dirty, canSave, busy] = useUnit([
    $xml,
    $fetchError,
    $dirty,
    $canSave,
    $busy,
  ]);
  const [mounted, changed, save, reset] = useUnit([
    configPageMounted,
    xmlChanged,
    saveClicked,
    resetClicked,
  ]);
  const editorId = useId();
  const scope = useProvidedScope();
  const isDirty = useCallback(() => (scope ? scope.getState($dirty) : $dirty.getState()), [scope]);
  useEffect(() => mounted(), [mounted]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  return (
    <section className="config-descriptor">
      <UnsavedChangesGuard isDirty={isDirty} />
      <h1>{L.configTitle}</h1>
      <p role="note" className="config-descriptor-warning">
        {L.configWarning}
      </p>
      {fetchError && (
        <p role="alert" className="error-text">
          {fetchError}
        </p>
      )}
      {xml === null && !fetchError ? (
        <p>{L.loading}</p>
      ) : (
        <form onSubmit={submit}>
          <label htmlFor={editorId}>{L.editor}</label>
          <textarea
            id={editorId}
            className="config-descriptor-xml"
            spellCheck={false}
            value={xml ?? ''}
            disabled={busy}
            onChange={(event) => changed(event.target.value)}
          />
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={!canSave}>
              {L.save}
            </button>
            <button type="button" className="btn" disabled={!dirty || busy} onClick={() => reset()}>
              {L.reset}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
