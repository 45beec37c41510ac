import { useEffect, useId, useState } from 'react';
import { useUnit } from 'effector-react';
import type { RepoChoice } from '../../api/permissions';
import { CheckboxField } from '../../design/components/CheckboxField';
import type { DisplayMode, Resource, ResourceForm } from './editor';
import { listedRepositories } from './repositoryKeys';
import {
  $resourceViews,
  $stagedResources,
  resourceChanged,
  resourceDiscarded,
  resourceSaved,
} from './model';
import { MODE_LABELS, PERMISSION_LABELS as L, RESOURCE_TITLES } from './messages';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A textarea of one item per line; follows the values when they change elsewhere (Discard). */
function LinesField({
  label,
  values,
  onChange,
}: {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
}) {
  const id = useId();
  const [text, setText] = useState(values.join('\n'));
  const joined = values.join('\n');
  useEffect(() => {
    setText((current) => (lines(current).join('\n') === joined ? current : joined));
  }, [joined]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="input"
        rows={3}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onChange(lines(event.target.value));
        }}
      />
    </div>
  );
}

/**
 * One resource type's section (spec 01 §2 Permission screens): what it covers (for
 * repositories: the class markers and repositories by name) and its patterns as Any, By
 * Pattern or By Name. Edits are staged; Save and Discard act on this section alone.
 */
export function ResourcePanel({
  resource,
  repositories,
}: {
  resource: Resource;
  repositories: RepoChoice[];
}) {
  const [views, stagedResources, change, save, discard] = useUnit([
    $resourceViews,
    $stagedResources,
    resourceChanged,
    resourceSaved,
    resourceDiscarded,
  ]);
  const form = views[resource];
  const title = RESOURCE_TITLES[resource];
  const staged = stagedResources.includes(resource);
  const edit = (patch: Partial<ResourceForm>) => change({ resource, form: { ...form, ...patch } });
  const toggleRepository = (key: string, on: boolean) =>
    edit({
      repositories: on
        ? [...form.repositories, key]
        : form.repositories.filter((chosen) => chosen !== key),
    });

  return (
    <section className="permission-resource" aria-label={title}>
      <h3>{title}</h3>
      {resource === 'repo' && (
        <div className="permission-repositories">
          <CheckboxField
            label={L.anyLocal}
            checked={form.anyLocal}
            onChange={(event) => edit({ anyLocal: event.target.checked })}
          />
          <CheckboxField
            label={L.anyRemote}
            checked={form.anyRemote}
            onChange={(event) => edit({ anyRemote: event.target.checked })}
          />
          <fieldset className="permission-repo-list">
            <legend>{L.chooseRepositories}</legend>
            {listedRepositories(repositories, form.repositories).map((key) => (
              <CheckboxField
                key={key}
                label={key}
                checked={form.repositories.includes(key)}
                onChange={(event) => toggleRepository(key, event.target.checked)}
              />
            ))}
          </fieldset>
        </div>
      )}
      <fieldset className="permission-modes">
        <legend>{L.displayMode}</legend>
        {(['any', 'pattern', 'name'] as DisplayMode[]).map((mode) => (
          <label key={mode} className="radio">
            <input
              type="radio"
              name={`${resource}-mode`}
              checked={form.mode === mode}
              onChange={() => edit({ mode })}
            />
            {MODE_LABELS[mode]}
          </label>
        ))}
      </fieldset>
      {/* keyed by mode, so a field starts from the form's values when it appears */}
      {form.mode === 'name' && (
        <LinesField
          key="names"
          label={L.names}
          values={form.names}
          onChange={(names) => edit({ names })}
        />
      )}
      {form.mode === 'pattern' && (
        <>
          <LinesField
            key="include"
            label={L.includePatterns}
            values={form.includePatterns}
            onChange={(includePatterns) => edit({ includePatterns })}
          />
          <LinesField
            key="exclude"
            label={L.excludePatterns}
            values={form.excludePatterns}
            onChange={(excludePatterns) => edit({ excludePatterns })}
          />
        </>
      )}
      <div className="permission-resource-buttons">
        <button type="button" className="btn" disabled={!staged} onClick={() => save(resource)}>
          {L.resourceSave(title)}
        </button>
        <button type="button" className="btn" disabled={!staged} onClick={() => discard(resource)}>
          {L.resourceDiscard(title)}
        </button>
      </div>
    </section>
  );
}
