import { useEffect, useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import type { TabsAndActions, TreeNode } from '../../api/treeBrowser';
import { ConfirmDialog } from '../../design/components/ConfirmDialog';
import { Dialog } from '../../design/components/Dialog';
import {
  $actionRunning,
  $dialog,
  $dryRunResult,
  $transferTargets,
  actionClicked,
  deleteConfirmed,
  dialogClosed,
  downloadFolderConfirmed,
  emptyTrashConfirmed,
  transferSubmitted,
  versionsDeleteConfirmed,
  type ActionDialog,
} from './actions-model';
import { ACTION_LABELS as A } from './messages';
import { originalLocation } from './targets';
import { RepositorySelect } from './RepositorySelect';
import { FolderDownloadDialog } from './FolderDownloadDialog';
import { ScrollableCode } from '../../components/ScrollableCode';

type NodeAction = TabsAndActions['actions'][number];

const DANGEROUS = new Set(['delete', 'emptytrash', 'deleteversions']);

/** The buttons of the actions the server offers for the node (spec 02 §4). */
export function NodeActionsBar({ node, actions }: { node: TreeNode; actions: NodeAction[] }) {
  const [click, running] = useUnit([actionClicked, $actionRunning]);
  const known = actions.filter(({ name }) => A.names[name] !== undefined);
  if (known.length === 0) return null;
  return (
    <div className="tree-actions" role="toolbar" aria-label="Actions">
      {known.map(({ name, permanent }) => (
        <button
          key={name}
          type="button"
          className={DANGEROUS.has(name) ? 'btn btn-danger' : 'btn'}
          disabled={running}
          onClick={() => click({ name, node, permanent })}
        >
          {A.names[name]}
        </button>
      ))}
    </div>
  );
}

/** Whichever action dialog is open. */
export function NodeActionDialogs() {
  const [dialog, close, confirmDelete, confirmEmpty, confirmFolderDownload] = useUnit([
    $dialog,
    dialogClosed,
    deleteConfirmed,
    emptyTrashConfirmed,
    downloadFolderConfirmed,
  ]);
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'delete': {
      const where = `${dialog.node.repoKey}/${dialog.node.path}`;
      return (
        <ConfirmDialog
          title={A.deleteTitle}
          text={dialog.permanent ? A.deletePermanentText(where) : A.deleteText(where)}
          confirmLabel={A.names.delete}
          cancelLabel={A.cancel}
          danger
          onConfirm={() => confirmDelete()}
          onCancel={() => close()}
        />
      );
    }
    case 'emptytrash':
      return (
        <ConfirmDialog
          title={A.names.emptytrash}
          text={A.emptyTrashText}
          confirmLabel={A.names.emptytrash}
          cancelLabel={A.cancel}
          danger
          onConfirm={() => confirmEmpty()}
          onCancel={() => close()}
        />
      );
    case 'downloadfolder':
      return (
        <FolderDownloadDialog
          info={dialog.info}
          onDownload={(options) => confirmFolderDownload(options)}
          onCancel={() => close()}
        />
      );
    case 'transfer':
      return <TransferDialog dialog={dialog} />;
    case 'deleteversions':
      return <DeleteVersionsDialog dialog={dialog} />;
    case 'view':
      // Spec 02 §2's code view: the text as React text (escaped), never rendered as markup.
      return (
        <Dialog
          title={A.viewTitle(dialog.node.text)}
          size="wide"
          onClose={() => close()}
          actions={
            <button type="button" className="btn" onClick={() => close()}>
              {A.close}
            </button>
          }
        >
          <ScrollableCode label={dialog.node.path}>{dialog.text}</ScrollableCode>
        </Dialog>
      );
  }
}

/** Spec 02 §2 Delete versions modal: the versions below the folder, the chosen ones deleted. */
function DeleteVersionsDialog({
  dialog,
}: {
  dialog: Extract<ActionDialog, { kind: 'deleteversions' }>;
}) {
  const [running, confirm, close] = useUnit([
    $actionRunning,
    versionsDeleteConfirmed,
    dialogClosed,
  ]);
  const { node, versions } = dialog;
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const toggle = (index: number, on: boolean) =>
    setChosen((now) => {
      const next = new Set(now);
      if (on) next.add(index);
      else next.delete(index);
      return next;
    });
  const allChosen = versions.length > 0 && chosen.size === versions.length;
  return (
    <Dialog
      title={A.deleteVersionsTitle(node.text)}
      onClose={() => close()}
      actions={
        <>
          <button
            type="button"
            className="btn btn-danger"
            disabled={running || chosen.size === 0}
            onClick={() => confirm(versions.filter((_, index) => chosen.has(index)))}
          >
            {A.deleteVersionsConfirm(chosen.size)}
          </button>
          <button type="button" className="btn" onClick={() => close()}>
            {A.cancel}
          </button>
        </>
      }
    >
      {versions.length === 0 ? (
        <p>{A.noVersions}</p>
      ) : (
        <div className="tree-versions-scroll">
          <table className="data-table tree-versions" aria-label={A.names.deleteversions}>
            <thead>
              <tr>
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label={A.selectAllVersions}
                    checked={allChosen}
                    onChange={(event) =>
                      setChosen(event.target.checked ? new Set(versions.keys()) : new Set())
                    }
                  />
                </th>
                <th scope="col">{A.groupId}</th>
                <th scope="col">{A.version}</th>
                <th scope="col">{A.directoriesCount}</th>
              </tr>
            </thead>
            <tbody>
              {versions.map((entry, index) => (
                <tr key={`${entry.groupId}:${entry.version}`}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${entry.groupId} ${entry.version}`}
                      checked={chosen.has(index)}
                      onChange={(event) => toggle(index, event.target.checked)}
                    />
                  </td>
                  <td>{entry.groupId}</td>
                  <td>{entry.version}</td>
                  <td>{entry.directoriesCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="hint">{A.deleteVersionsHint}</p>
    </Dialog>
  );
}

/** The target-path dialog of copy, move and restore, with its dry run. */
function TransferDialog({ dialog }: { dialog: Extract<ActionDialog, { kind: 'transfer' }> }) {
  const [targets, dryRunResult, running, submit, close] = useUnit([
    $transferTargets,
    $dryRunResult,
    $actionRunning,
    transferSubmitted,
    dialogClosed,
  ]);
  const { node, action } = dialog;
  const start = action === 'restore' ? originalLocation(node) : { repoKey: '', path: node.path };
  const [targetRepoKey, setTargetRepoKey] = useState(start.repoKey);
  const [targetPath, setTargetPath] = useState(start.path);
  // Until the user picks one, the first compatible repository is the target.
  useEffect(() => {
    if (!targetRepoKey && targets.length > 0) setTargetRepoKey(targets[0].repoKey);
  }, [targets, targetRepoKey]);

  const run = (dryRun: boolean) => submit({ targetRepoKey, targetPath, dryRun });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    run(false);
  };
  const title = A.transferTitle(A.names[action], node.text);
  const formId = 'tree-transfer-form';
  return (
    <Dialog
      title={title}
      onClose={() => close()}
      actions={
        <>
          <button
            type="submit"
            form={formId}
            className="btn btn-primary"
            disabled={running || !targetRepoKey}
          >
            {A.names[action]}
          </button>
          <button
            type="button"
            className="btn"
            disabled={running || !targetRepoKey}
            onClick={() => run(true)}
          >
            {A.dryRun}
          </button>
          <button type="button" className="btn" onClick={() => close()}>
            {A.cancel}
          </button>
        </>
      }
    >
      <form id={formId} className="tree-transfer-form" onSubmit={onSubmit}>
        <RepositorySelect
          label={A.targetRepository}
          repositories={targets}
          value={targetRepoKey}
          onChange={setTargetRepoKey}
          noneText={A.noTargets}
        />
        <label>
          {A.targetPath}
          <input value={targetPath} onChange={(event) => setTargetPath(event.target.value)} />
        </label>
        <p className="hint">{A.targetPathHint}</p>
        {dryRunResult && (
          <p role="status" className="tree-dry-run">
            {dryRunResult}
          </p>
        )}
      </form>
    </Dialog>
  );
}
