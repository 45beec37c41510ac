import { useState, type FormEvent } from 'react';
import { useUnit } from 'effector-react';
import { errorMessage } from '../../../api/errorMessage';
import { treeTabsApi, type ArtifactProperty, type TreeNode } from '../../../api/treeBrowser';
import { notificationShown } from '../../../shell/notifications/model';
import { nodeId } from '../rows';
import { TAB_LABELS } from '../messages';
import { PropertySetForm } from './PropertySetForm';
import { useKeyedData } from '../../../components/useKeyedData';

const T = TAB_LABELS.properties;

/** Values as typed: one per line, blank lines dropped. */
export const valuesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The Properties tab: the node's properties, and add, edit and delete, recursively on folders. */
export function PropertiesTab({ node }: { node: TreeNode }) {
  const notify = useUnit(notificationShown);
  const { data, error, reload } = useKeyedData(
    nodeId(node),
    () => treeTabsApi.properties(node),
    T.failed,
  );
  // The sets only offer choices: without them (or when they fail to load) the free form stays.
  const propertySets = useKeyedData(
    node.repoKey,
    () => treeTabsApi.propertySets(node),
    T.failed,
  ).data;
  const [editing, setEditing] = useState<ArtifactProperty | null>(null);
  /** A new form after each save, so that the fields start empty again. */
  const [saves, setSaves] = useState(0);
  const [recursive, setRecursive] = useState(false);
  const canRecurse = node.type !== 'file';

  const run = async (call: Promise<{ info: string }>) => {
    try {
      notify({ kind: 'success', text: (await call).info });
      setEditing(null);
      setSaves((n) => n + 1);
      reload();
    } catch (failure) {
      notify({ kind: 'error', text: errorMessage(failure) });
    }
  };
  const save = (property: ArtifactProperty) =>
    run(treeTabsApi.setProperty(node, property, canRecurse && recursive));
  const remove = (name: string) =>
    run(treeTabsApi.deleteProperties(node, [name], canRecurse && recursive));

  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  const properties = data?.artifactProperties ?? [];
  return (
    <div className="tree-properties">
      {canRecurse && (
        <label className="tree-toggle">
          <input
            type="checkbox"
            checked={recursive}
            onChange={(event) => setRecursive(event.target.checked)}
          />
          {T.recursive}
        </label>
      )}
      <table className="tree-table">
        <thead>
          <tr>
            <th scope="col">{T.name}</th>
            <th scope="col">{T.value}</th>
            <th scope="col">
              <span className="visually-hidden">{T.edit}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {properties.map((property) => (
            <tr key={property.name}>
              <td>{property.name}</td>
              <td>{property.value.join(', ')}</td>
              <td className="tree-table-actions">
                <button type="button" className="btn btn-link" onClick={() => setEditing(property)}>
                  {T.edit}
                </button>
                <button
                  type="button"
                  className="btn btn-link"
                  aria-label={`${T.delete} ${property.name}`}
                  onClick={() => remove(property.name)}
                >
                  {T.delete}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && properties.length === 0 && <p className="hint">{T.none}</p>}
      {propertySets && propertySets.length > 0 && (
        <PropertySetForm key={`set#${saves}`} sets={propertySets} onSave={save} />
      )}
      <PropertyForm
        key={`${editing?.name ?? ''}#${saves}`}
        editing={editing}
        onSave={save}
        onCancel={() => setEditing(null)}
      />
    </div>
  );
}

function PropertyForm({
  editing,
  onSave,
  onCancel,
}: {
  editing: ArtifactProperty | null;
  onSave: (property: ArtifactProperty) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(editing?.name ?? '');
  const [values, setValues] = useState(editing?.value.join('\n') ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ name: name.trim(), value: valuesOf(values) });
  };
  return (
    <form className="tree-property-form" onSubmit={submit} aria-label={editing ? T.edit : T.add}>
      <label>
        {T.name}
        <input value={name} readOnly={editing !== null} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {T.values}
        <textarea rows={3} value={values} onChange={(e) => setValues(e.target.value)} />
      </label>
      <div className="tree-form-buttons">
        <button type="submit" className="btn btn-primary">
          {editing ? T.save : T.add}
        </button>
        {editing && (
          <button type="button" className="btn" onClick={onCancel}>
            {T.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
