import { useState, type FormEvent } from 'react';
import type { ArtifactProperty, PropertySet } from '../../../api/treeBrowser';
import { MultiComboBox } from '../../../design/components/MultiComboBox';
import { Select } from '../../../design/components/Select';
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
  if (!chosen) return null;

  const pick = (next: string) => {
    setKey(next);
    setValues(properties.find((p) => p.key === next)?.defaults ?? []);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ name: chosen.key, value: chosen.type === 'ANY_VALUE' ? valuesOf(text) : values });
  };
  return (
    <form className="tree-property-form" onSubmit={submit} aria-label={T.fromSet}>
      <div className="tree-form-field">
        <Select
          label={T.setProperty}
          options={properties.map((p) => ({ value: p.key, label: p.key }))}
          value={key}
          onChange={pick}
        />
      </div>
      {chosen.type === 'ANY_VALUE' && (
        <label>
          {T.values}
          <textarea rows={2} value={text} onChange={(event) => setText(event.target.value)} />
        </label>
      )}
      {chosen.type === 'SINGLE_SELECT' && (
        <div className="tree-form-field">
          <Select
            label={T.value}
            options={chosen.choices.map((choice) => ({ value: choice, label: choice }))}
            value={values[0] ?? null}
            onChange={(choice) => setValues([choice])}
          />
        </div>
      )}
      {chosen.type === 'MULTI_SELECT' && (
        <div className="tree-form-field">
          <MultiComboBox
            label={T.value}
            choices={chosen.choices}
            values={values}
            onChange={setValues}
          />
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
