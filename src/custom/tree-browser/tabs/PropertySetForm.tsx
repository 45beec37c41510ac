import { useId, useState, type FormEvent } from 'react';
import type { ArtifactProperty, PropertySet } from '../../../api/treeBrowser';
import { TAB_LABELS } from '../messages';
import { valuesOf } from './PropertiesTab';

const T = TAB_LABELS.properties;

/** A property of a set, named as Artifactory names it: `set.property`. */
interface SetProperty {
  key: string;
  type: PropertySet['properties'][number]['propertyType'];
  choices: string[];
  defaults: string[];
}

export function setProperties(sets: PropertySet[]): SetProperty[] {
  return sets.flatMap((set) =>
    set.properties.map((property) => ({
      key: `${set.name}.${property.name}`,
      type: property.propertyType,
      choices: property.predefinedValues.map((v) => v.value),
      defaults: property.predefinedValues.filter((v) => v.defaultValue).map((v) => v.value),
    })),
  );
}

/** Adds a property from a property set: its predefined values to choose from (spec 03). */
export function PropertySetForm({
  sets,
  onSave,
}: {
  sets: PropertySet[];
  onSave: (property: ArtifactProperty) => void;
}) {
  const properties = setProperties(sets);
  const [key, setKey] = useState(properties[0]?.key ?? '');
  const chosen = properties.find((p) => p.key === key);
  const [values, setValues] = useState<string[]>(chosen?.defaults ?? []);
  const [text, setText] = useState('');
  const id = useId();
  if (!chosen) return null;

  const pick = (next: string) => {
    setKey(next);
    setValues(properties.find((p) => p.key === next)?.defaults ?? []);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ name: chosen.key, value: chosen.type === 'ANY_VALUE' ? valuesOf(text) : values });
  };
  // Labels point at their selects by id: a label around a select would take the chosen
  // option into its name.
  return (
    <form className="tree-property-form" onSubmit={submit} aria-label={T.fromSet}>
      <div className="tree-form-field">
        <label htmlFor={`${id}-key`}>{T.setProperty}</label>
        <select id={`${id}-key`} value={key} onChange={(event) => pick(event.target.value)}>
          {properties.map((p) => (
            <option key={p.key} value={p.key}>
              {p.key}
            </option>
          ))}
        </select>
      </div>
      {chosen.type === 'ANY_VALUE' ? (
        <label>
          {T.values}
          <textarea rows={2} value={text} onChange={(event) => setText(event.target.value)} />
        </label>
      ) : (
        <div className="tree-form-field">
          <label htmlFor={`${id}-value`}>{T.value}</label>
          <select
            id={`${id}-value`}
            multiple={chosen.type === 'MULTI_SELECT'}
            value={chosen.type === 'MULTI_SELECT' ? values : (values[0] ?? '')}
            onChange={(event) =>
              setValues([...event.target.selectedOptions].map((option) => option.value))
            }
          >
            {chosen.type === 'SINGLE_SELECT' && <option value="" />}
            {chosen.choices.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="tree-form-buttons">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={chosen.type !== 'ANY_VALUE' && values.length === 0}
        >
          {T.add}
        </button>
      </div>
    </form>
  );
}
