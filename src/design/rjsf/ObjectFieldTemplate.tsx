import type { ObjectFieldTemplateProps } from '@rjsf/utils';

/** The `ui:sections` option the engine sets from a descriptor's `form.sections`. */
export interface FormSection {
  title: string;
  fields: string[];
}

/**
 * The form's properties one under the other; the page heading already names the entity.
 * With sections, the fields no section names come first, then each section as a fieldset
 * under its title (the spec's webhook form: General Settings, Events, Repositories, ...).
 */
export function ObjectFieldTemplate({
  properties,
  fieldPathId,
  uiSchema,
}: ObjectFieldTemplateProps) {
  const visible = properties.filter((p) => !p.hidden);
  const sections = (uiSchema?.['ui:sections'] as FormSection[] | undefined) ?? [];
  if (sections.length === 0) {
    return <div id={fieldPathId.$id}>{visible.map((p) => p.content)}</div>;
  }
  const inSection = new Set(sections.flatMap((section) => section.fields));
  return (
    <div id={fieldPathId.$id}>
      {visible.filter((p) => !inSection.has(p.name)).map((p) => p.content)}
      {sections.map((section) => {
        const content = visible.filter((p) => section.fields.includes(p.name));
        if (content.length === 0) return null;
        return (
          <fieldset className="form-section" key={section.title}>
            <legend>{section.title}</legend>
            {content.map((p) => p.content)}
          </fieldset>
        );
      })}
    </div>
  );
}
