import { useEffect, useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { folderDownloadHref, type TreeNode } from '../../api/treeBrowser';
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
  emptyTrashConfirmed,
  startDownload,
  transferSubmitted,
  type ActionDialog,
} from './actions-model';
import { ACTION_LABELS as A } from './messages';
import { originalLocation } from './targets';
import { RepositorySelect } from './RepositorySelect';

/** The buttons of the actions the server offers for the node (spec 02 §4). */
export function NodeActionsBar({ node, actions }: { node: TreeNode; actions: string[] }) {
  const [click, running] = useUnit([actionClicked, $actionRunning]);
  const known = actions.filter((name) => A.names[name] !== undefined);
  if (known.length === 0) return null;
  return (
    <div className="tree-actions" role="toolbar" aria-label="Actions">
      {known.map((name) => (
        <button
          key={name}
          type="button"
          className={name === 'delete' || name === 'emptytrash' ? 'btn btn-danger' : 'btn'}
          disabled={running}
          onClick={() => click({ name, node })}
        >
          {A.names[name]}
        </button>
      ))}
    </div>
  );
}

/** Whichever action dialog is open. */
export function NodeActionDialogs() {
  const [dialog, close, confirmDelete, confirmEmpty] = useUnit([
    $dialog,
    dialogClosed,
    deleteConfirmed,
    emptyTrashConfirmed,
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
        <ConfirmDialog
          title={A.downloadFolderTitle}
          text={A.downloadFolderText(dialog.info.totalFiles, dialog.info.sizeMB)}
          confirmLabel={A.names.download}
          cancelLabel={A.cancel}
          onConfirm={() => {
            startDownload(folderDownloadHref(dialog.node));
            close();
          }}
          onCancel={() => close()}
        />
      );
    case 'transfer':
      return <TransferDialog dialog={dialog} />;
  }
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
