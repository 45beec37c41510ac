import { useEffect, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { browseFilesystem, type BrowseAnswer } from '../../api/browseFilesystem';
import { errorMessage } from '../../api/errorMessage';
import { Dialog } from '../components/Dialog';
import { WIDGET_TEXTS } from './widgetTexts';

/**
 * A server directory typed in, or picked with Browse: a dialog that walks the directories
 * the server allows (`ui:options.browsePath`, the spec's `/ui/browsefilesystem`), one level
 * at a time, and puts the chosen one in the field.
 */
export function ServerPathWidget(props: WidgetProps) {
  const { registry, onChange, disabled, readonly, options, label } = props;
  const BaseInput = registry.templates.BaseInputTemplate;
  const [open, setOpen] = useState(false);
  const endpoint = String(options.browsePath ?? '/ui/browsefilesystem');
  return (
    <div className="server-path-field">
      <BaseInput {...props} type="text" />
      <button
        type="button"
        className="btn"
        disabled={disabled || readonly}
        aria-label={WIDGET_TEXTS.browseFor(label)}
        onClick={() => setOpen(true)}
      >
        {WIDGET_TEXTS.browse}
      </button>
      {open && (
        <DirectoryPicker
          endpoint={endpoint}
          onCancel={() => setOpen(false)}
          onPick={(path) => {
            onChange(path);
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}

function DirectoryPicker(props: {
  endpoint: string;
  onCancel: () => void;
  onPick: (path: string) => void;
}) {
  const [at, setAt] = useState<string | null>(null);
  const [answer, setAnswer] = useState<BrowseAnswer>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let current = true;
    setError(undefined);
    browseFilesystem(props.endpoint, at).then(
      (found) => current && setAnswer(found),
      (failure: unknown) => current && setError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [props.endpoint, at]);
  const listed = answer && answer.path === at ? answer : undefined;
  return (
    <Dialog
      title={WIDGET_TEXTS.pickDirectory}
      onClose={props.onCancel}
      actions={
        <>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!listed?.path}
            onClick={() => listed?.path && props.onPick(listed.path)}
          >
            {WIDGET_TEXTS.selectDirectory}
          </button>
          <button type="button" className="btn" onClick={props.onCancel}>
            {WIDGET_TEXTS.cancel}
          </button>
        </>
      }
    >
      <p className="server-path-current" aria-live="polite">
        {at ?? WIDGET_TEXTS.allowedDirectories}
      </p>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <ul className="server-path-list" aria-label={WIDGET_TEXTS.directories}>
        {at !== null && (
          <li>
            <button
              type="button"
              className="btn btn-link"
              onClick={() => setAt(listed?.parent ?? null)}
            >
              {WIDGET_TEXTS.upOneLevel}
            </button>
          </li>
        )}
        {listed?.directories.map((directory) => (
          <li key={directory.path}>
            <button type="button" className="btn btn-link" onClick={() => setAt(directory.path)}>
              {directory.name}
            </button>
          </li>
        ))}
      </ul>
      {listed && listed.directories.length === 0 && <p>{WIDGET_TEXTS.noSubdirectories}</p>}
      {listed?.truncated && <p>{WIDGET_TEXTS.moreDirectories}</p>}
    </Dialog>
  );
}
