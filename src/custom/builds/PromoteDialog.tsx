import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/errorMessage';
import { CheckboxField } from '../../design/components/CheckboxField';
import { Dialog } from '../../design/components/Dialog';
import { TextField } from '../../design/components/TextField';
import { buildsApi, type BuildAt, type Promotion } from './api';
import { BUILD_LABELS as L, BUILD_MESSAGES as M } from './messages';

/**
 * Promote a build (docs/builds.md, "Promotion"): target repository, status, comment, copy
 * or move, dependencies, dry run. The server's messages list what was (or would be) done.
 */
export function PromoteDialog({ build, onClose }: { build: BuildAt; onClose: () => void }) {
  const formId = useId();
  const listId = useId();
  const [repositories, setRepositories] = useState<string[]>([]);
  const [form, setForm] = useState<Promotion>({
    targetRepo: '',
    status: '',
    comment: '',
    copy: true,
    dependencies: false,
    dryRun: false,
  });
  const [missingTarget, setMissingTarget] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ error?: string; lines?: string[]; title?: string }>({});
  useEffect(() => {
    // The choices help; a caller who may not list repositories types the key.
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
  const set = <K extends keyof Promotion>(key: K, value: Promotion[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const targetRepo = form.targetRepo.trim();
    setMissingTarget(targetRepo === '');
    if (targetRepo === '') return;
    setBusy(true);
    try {
      const answer = await buildsApi.promote(build, {
        ...form,
        targetRepo,
        status: form.status?.trim() || undefined,
        comment: form.comment?.trim() || undefined,
      });
      setOutcome({
        title: form.dryRun ? M.dryRunDone : M.promoted,
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
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {L.promote}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {L.cancel}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <TextField
          label={L.targetRepo}
          required
          list={listId}
          value={form.targetRepo}
          error={missingTarget ? M.targetRequired : undefined}
          onChange={(e) => set('targetRepo', e.target.value)}
        />
        <datalist id={listId}>
          {repositories.map((key) => (
            <option key={key} value={key} />
          ))}
        </datalist>
        <TextField
          label={L.promoteStatus}
          value={form.status}
          onChange={(e) => set('status', e.target.value)}
        />
        <TextField
          label={L.comment}
          value={form.comment}
          onChange={(e) => set('comment', e.target.value)}
        />
        <CheckboxField
          label={L.copy}
          checked={form.copy}
          onChange={(e) => set('copy', e.target.checked)}
        />
        <CheckboxField
          label={L.withDependencies}
          checked={form.dependencies}
          onChange={(e) => set('dependencies', e.target.checked)}
        />
        <CheckboxField
          label={L.dryRun}
          checked={form.dryRun}
          onChange={(e) => set('dryRun', e.target.checked)}
        />
      </form>
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
