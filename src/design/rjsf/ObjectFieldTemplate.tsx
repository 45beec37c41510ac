import type { ObjectFieldTemplateProps } from '@rjsf/utils';

/** The form's properties one under the other; the page heading already names the entity. */
export function ObjectFieldTemplate({ properties, fieldPathId }: ObjectFieldTemplateProps) {
  return (
    <div id={fieldPathId.$id}>{properties.filter((p) => !p.hidden).map((p) => p.content)}</div>
  );
}
