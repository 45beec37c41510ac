import { TabBar } from '../../design/components/TabBar';
import { useState, type DragEvent } from 'react';
import { useUnit } from 'effector-react';
import type { PrincipalChoice } from '../../api/permissions';
import { RESOURCES, RESOURCE_ACTIONS, hasData, type PrincipalKind } from './editor';
import { $form, actionToggled, principalAdded, principalRemoved } from './model';
import { ACTION_LABELS, PERMISSION_LABELS as L, PRINCIPAL_TABS, RESOURCE_TITLES } from './messages';

const DRAG_TYPE = 'application/x-depot-principal';

/**
 * The users and groups tabs (spec 01 §2): available principals on the left, dragged (or
 * added with their button) to the selected ones, each with its actions per resource type.
 * Admins are listed but cannot be added: they may do everything already.
 */
export function PrincipalsPanel({
  choices,
  locked,
}: {
  choices: Record<PrincipalKind, PrincipalChoice[]>;
  /** A manager's own rows (spec 01 §3 isLoggedInAsManager): shown, never editable. */
  locked: Record<PrincipalKind, string[]> | null;
}) {
  const [kind, setKind] = useState<PrincipalKind>('users');
  return (
    <section className="permission-principals" aria-label={L.principals}>
      <TabBar
        label={L.principals}
        className="permission-tabs"
        names={['users', 'groups'] as const}
        selected={kind}
        labelOf={(tab) => PRINCIPAL_TABS[tab]}
        onSelect={setKind}
      >
        <PrincipalLists kind={kind} choices={choices[kind]} locked={locked?.[kind] ?? []} />
      </TabBar>
    </section>
  );
}

function PrincipalLists({
  kind,
  choices,
  locked,
}: {
  kind: PrincipalKind;
  choices: PrincipalChoice[];
  locked: string[];
}) {
  const [form, add, remove, toggle] = useUnit([
    $form,
    principalAdded,
    principalRemoved,
    actionToggled,
  ]);
  const [dropping, setDropping] = useState(false);
  if (!form) return null;
  const selected = form.grants[kind];
  const available = choices.filter((choice) => !selected[choice.name]);
  const resources = RESOURCES.filter((resource) => hasData(resource, form.resources[resource]));

  // Spec 01 §2: rows are draggable only if not admin and not the manager's own.
  const addable = (choice: PrincipalChoice) => !choice.admin && !locked.includes(choice.name);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDropping(false);
    const name = event.dataTransfer.getData(DRAG_TYPE);
    const choice = choices.find((c) => c.name === name);
    if (choice && addable(choice)) add({ kind, name });
  };

  return (
    <div className="permission-lists" role="tabpanel">
      <ul className="permission-available" aria-label={L.available(kind)}>
        {available.map((choice) => (
          <li
            key={choice.name}
            draggable={addable(choice)}
            onDragStart={(event) => event.dataTransfer.setData(DRAG_TYPE, choice.name)}
            className={addable(choice) ? undefined : 'permission-admin'}
          >
            <span>{choice.name}</span>
            {!addable(choice) ? (
              <small>{choice.admin ? L.adminNote : L.ownRowNote}</small>
            ) : (
              <button
                type="button"
                className="btn btn-link"
                aria-label={L.add(choice.name)}
                onClick={() => add({ kind, name: choice.name })}
              >
                +
              </button>
            )}
          </li>
        ))}
      </ul>
      <div
        className={`permission-selected${dropping ? ' dropping' : ''}`}
        role="region"
        aria-label={L.selected(kind)}
        onDragOver={(event) => {
          event.preventDefault();
          setDropping(true);
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={onDrop}
      >
        {Object.keys(selected).length === 0 && <p className="hint">{L.dropHint}</p>}
        {resources.length === 0 && Object.keys(selected).length > 0 && (
          <p className="hint">{L.noResource}</p>
        )}
        {Object.entries(selected).map(([name, perResource]) => (
          <div key={name} className="permission-principal" role="group" aria-label={name}>
            <div className="permission-principal-head">
              <strong>{name}</strong>
              {locked.includes(name) ? (
                <small>{L.ownRowNote}</small>
              ) : (
                <button
                  type="button"
                  className="btn btn-link"
                  aria-label={L.remove(name)}
                  onClick={() => remove({ kind, name })}
                >
                  ×
                </button>
              )}
            </div>
            {resources.map((resource) => (
              <fieldset
                key={resource}
                className="permission-actions"
                disabled={locked.includes(name)}
              >
                <legend>{RESOURCE_TITLES[resource]}</legend>
                {RESOURCE_ACTIONS[resource].map((action) => (
                  <label key={action} className="checkbox">
                    <input
                      type="checkbox"
                      checked={(perResource[resource] ?? []).includes(action)}
                      onChange={(event) =>
                        toggle({ kind, name, resource, action, on: event.target.checked })
                      }
                    />
                    <span>{ACTION_LABELS[resource][action]}</span>
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
