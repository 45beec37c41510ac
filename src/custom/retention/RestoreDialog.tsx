import { useEffect, useState } from 'react';
import { Dialog } from '../../design/components/Dialog';
import { Select } from '../../design/components/Select';
import { retentionApi, type ArchivedItem, type RestoreRequest } from './api';
import { RETENTION_LABELS as L, RETENTION_MESSAGES as M } from './messages';

type Choice = 'original' | 'new';

/** `repo[/folder]`, as the restore request names a destination. */
const destination = (repo: string, folder: string) =>
  repo ? [repo, ...folder.split('/').filter(Boolean)].join('/') : undefined;

/**
 * 'Select Restore Destination' (spec 02 §2, 420px wide): back where each item was (with a
 * fallback repository for items whose repository is gone), or under a new location, where an
 * item goes to `folder/{its repository}/{its path}`.
 */
export function RestoreDialog({
  items,
  onRestore,
  onClose,
}: {
  items: ArchivedItem[];
  onRestore: (request: RestoreRequest) => void;
  onClose: () => void;
}) {
  const [choice, setChoice] = useState<Choice>('original');
  const [repo, setRepo] = useState('');
  const [folder, setFolder] = useState('');
  const [repositories, setRepositories] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    retentionApi
      .repositories()
      .then((rows) =>
        setRepositories(rows.filter((row) => row.repoType === 'local').map((row) => row.repoKey)),
      )
      .catch(() => setRepositories([]));
  }, []);

  const submit = () => {
    const to = destination(repo, folder);
    if (choice === 'new' && !to) {
      setProblem(M.repositoryRequired);
      return;
    }
    onRestore({
      restoreToOriginal: choice === 'original',
      ...(choice === 'original' && to ? { fallbackDestinationPath: to } : {}),
      ...(choice === 'new' ? { centralDestinationPath: to } : {}),
      itemsToRestore: items.map(({ repo: itemRepo, path, name }) => ({
        repo: itemRepo,
        path,
        name,
      })),
    });
  };
  const radio = (value: Choice, label: string) => (
    <label className="retention-radio">
      <input
        type="radio"
        name="restore-destination"
        checked={choice === value}
        onChange={() => {
          setChoice(value);
          setProblem(null);
        }}
      />
      {label}
    </label>
  );
  return (
    <Dialog
      title={L.restoreTitle}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-primary" onClick={submit}>
            {L.restore}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {L.cancel}
          </button>
        </>
      }
    >
      <div className="restore-dialog">
        <fieldset>
          <legend>{L.destination}</legend>
          {radio('original', L.original)}
          {radio('new', L.newLocation)}
        </fieldset>
        <Select
          label={choice === 'original' ? L.fallbackRepository : L.repository}
          options={[
            { value: '', label: L.noRepository },
            ...repositories.map((key) => ({ value: key, label: key })),
          ]}
          value={repo}
          onChange={(value) => {
            setRepo(value);
            setProblem(null);
          }}
          isInvalid={problem !== null}
          isRequired={choice === 'new'}
        />
        <label className="search-field">
          <span>{L.folder}</span>
          <input value={folder} onChange={(event) => setFolder(event.target.value)} />
        </label>
        {problem && (
          <p role="alert" className="error-text">
            {problem}
          </p>
        )}
      </div>
    </Dialog>
  );
}
