import { useEffect, useId, useMemo, useState } from 'react';
import { errorMessage } from '../../api/errorMessage';
import type { DialogDescriptor, FormDescriptor } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { schemasApi } from '../../api/schemas';
import { Dialog } from '../../design/components/Dialog';
import { buildFormSchema, initialFormData } from '../../engine/form/formSchema';
import { SchemaForm } from '../../engine/form/SchemaForm';
import { buildsApi, type BuildAt, type Promotion } from './api';
import { BUILD_LABELS as L, BUILD_MESSAGES as M } from './messages';

/** The builds screen's dialog (schemas/screens/builds.screen.json, `dialogs.promote`). */
const DIALOG = { screen: 'builds', id: 'promote' } as const;

/** The dialog's form, the target repository suggesting the local repositories given. */
export function promotionForm(dialog: DialogDescriptor, repositories: string[]): FormDescriptor {
  const uiSchema = (dialog.uiSchema ?? {}) as Record<string, Record<string, unknown>>;
  const target = uiSchema.targetRepo ?? {};
  const options = { ...(target['ui:options'] as object), suggestions: repositories };
  return {
    fields: dialog.fields,
    uiSchema: { ...uiSchema, targetRepo: { ...target, 'ui:options': options } },
  };
}

/** What is sent: the valid form, its texts trimmed, empty ones left out. */
function promotionOf(payload: Row): Promotion {
  const trimmed = Object.entries(payload).map(([key, value]) => [
    key,
    typeof value === 'string' ? value.trim() || undefined : value,
  ]);
  return Object.fromEntries(trimmed.filter(([, value]) => value !== undefined)) as Promotion;
}

/**
 * Promote a build (docs/builds.md, "Promotion"): the engine's form over the build-promotion
 * schema (target repository, status, comment, copy or move, dependencies, dry run). The
 * server's messages list what was (or would be) done.
 */
export function PromoteDialog({ build, onClose }: { build: BuildAt; onClose: () => void }) {
  const formId = useId();
  const [dialog, setDialog] = useState<DialogDescriptor>();
  const [repositories, setRepositories] = useState<string[]>([]);
  const [data, setData] = useState<Row>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ error?: string; lines?: string[]; title?: string }>({});
  useEffect(() => {
    schemasApi.getDialog(DIALOG.screen, DIALOG.id).then(
      (loaded) => {
        const form = promotionForm(loaded, []);
        setData(initialFormData(buildFormSchema(form, loaded.entitySchema, 'create').schema));
        setDialog(loaded);
      },
      (error) => setOutcome({ error: errorMessage(error, M.loadFailed) }),
    );
    // The suggestions help; a caller who may not list repositories types the key.
    buildsApi.localRepositories().then(
      (repos) =>
        setRepositories(
          repos
            .filter((r) => r.repoType === 'local' && r.packageType !== 'buildinfo')
            .map((r) => r.repoKey),
        ),
      () => setRepositories([]),
    );
  }, []);
  const form = useMemo(
    () => (dialog ? promotionForm(dialog, repositories) : undefined),
    [dialog, repositories],
  );
  const submit = async (payload: Row) => {
    const promotion = promotionOf(payload);
    setBusy(true);
    try {
      const answer = await buildsApi.promote(build, promotion);
      setOutcome({
        title: promotion.dryRun ? M.dryRunDone : M.promoted,
        lines: answer.messages.map((m) => m.message),
      });
    } catch (error) {
      setOutcome({ error: errorMessage(error, M.promoteFailed) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={L.promoteTitle}
      onClose={onClose}
      actions={
        <>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy || !form}>
            {L.promote}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {L.cancel}
          </button>
        </>
      }
    >
      {dialog && form && (
        <SchemaForm
          id={formId}
          form={form}
          entitySchema={dialog.entitySchema}
          mode="create"
          formData={data}
          disabled={busy}
          onChange={setData}
          onSubmit={submit}
        >
          <></>
        </SchemaForm>
      )}
      {outcome.error && <p role="alert">{outcome.error}</p>}
      {outcome.title && (
        <div role="status">
          <p>{outcome.title}</p>
          <ul>
            {outcome.lines?.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
    </Dialog>
  );
}
