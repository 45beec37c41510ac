import { useEffect, useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { treeBrowserApi, type TreeNode } from '../../../api/treeBrowser';
import { Dialog } from '../../../design/components/Dialog';
import { RepositorySelect } from '../RepositorySelect';
import { deployRequested } from './deploy-model';
import { DEPLOY_LABELS as D } from './messages';

/** `key=value` lines → properties (a key may repeat); the first bad line, if any. */
export function parseProperties(text: string): {
  properties: Record<string, string[]>;
  badLine?: string;
} {
  const properties: Record<string, string[]> = {};
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const equals = line.indexOf('=');
    const key = equals > 0 ? line.slice(0, equals).trim() : '';
    if (!key) return { properties, badLine: line };
    (properties[key] ??= []).push(line.slice(equals + 1).trim());
  }
  return { properties };
}

/** Where a deploy goes by default: the active node's folder in its repository. */
export function defaultTarget(active: TreeNode | null): { repoKey: string; folder: string } {
  if (!active || active.repoType !== 'local' || active.trash) return { repoKey: '', folder: '' };
  const folder =
    active.type === 'file' ? active.path.split('/').slice(0, -1).join('/') : active.path;
  return { repoKey: active.repoKey, folder };
}

/** Deploy: one or more files into a local repository's folder, or a zip as a bundle. */
export function DeployDialog({
  active,
  onClose,
}: {
  active: TreeNode | null;
  onClose: () => void;
}) {
  const deploy = useUnit(deployRequested);
  const start = defaultTarget(active);
  const [repositories, setRepositories] = useState<TreeNode[]>([]);
  const [repoKey, setRepoKey] = useState(start.repoKey);
  const [folder, setFolder] = useState(start.folder);
  const [files, setFiles] = useState<File[]>([]);
  const [propertiesText, setPropertiesText] = useState('');
  const [explode, setExplode] = useState(false);
  useEffect(() => {
    treeBrowserApi.localRepositories().then(
      (locals) => {
        setRepositories(locals);
        setRepoKey((key) => key || locals[0]?.repoKey || '');
      },
      () => setRepositories([]),
    );
  }, []);

  const { properties, badLine } = parseProperties(propertiesText);
  const oneZip = files.length === 1 && /\.zip$/i.test(files[0].name);
  const ready = repoKey !== '' && files.length > 0 && !badLine;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    deploy({
      repoKey,
      folder: folder.replace(/^\/+|\/+$/g, ''),
      files,
      properties,
      explode: oneZip && explode,
    });
    onClose();
  };
  const formId = 'tree-deploy-form';
  return (
    <Dialog
      title={D.title}
      onClose={onClose}
      actions={
        <>
          <button type="submit" form={formId} className="btn btn-primary" disabled={!ready}>
            {D.deploy}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {D.cancel}
          </button>
        </>
      }
    >
      <form id={formId} className="tree-transfer-form" onSubmit={submit}>
        <RepositorySelect
          label={D.targetRepository}
          repositories={repositories}
          value={repoKey}
          onChange={setRepoKey}
          noneText={D.noLocal}
        />
        <label>
          {D.targetFolder}
          <input value={folder} onChange={(event) => setFolder(event.target.value)} />
        </label>
        <label>
          {D.files}
          <input
            type="file"
            multiple
            onChange={(event) => setFiles([...(event.target.files ?? [])])}
          />
        </label>
        {oneZip && (
          <label className="tree-toggle">
            <input
              type="checkbox"
              checked={explode}
              onChange={(event) => setExplode(event.target.checked)}
            />
            {D.explode}
          </label>
        )}
        <label>
          {D.properties}
          <textarea
            rows={3}
            value={propertiesText}
            onChange={(event) => setPropertiesText(event.target.value)}
          />
        </label>
        {badLine && (
          <p role="alert" className="error-text">
            {D.badProperty(badLine)}
          </p>
        )}
      </form>
    </Dialog>
  );
}
