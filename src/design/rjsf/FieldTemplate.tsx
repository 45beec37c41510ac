import type { FieldTemplateProps } from '@rjsf/utils';

/** Label, control, description, errors and help of one field, in that order. */
export function FieldTemplate(props: FieldTemplateProps) {
  const {
    id,
    label,
    children,
    errors,
    help,
    description,
    hidden,
    required,
    displayLabel,
    classNames,
  } = props;
  if (hidden) return <div hidden>{children}</div>;
  return (
    <div className={`field ${classNames ?? ''}`.trim()}>
      {displayLabel && label && (
        <label id={`${id}__label`} htmlFor={id}>
          {label}
          {required && (
            <span className="required" aria-hidden="true">
              *
            </span>
          )}
        </label>
      )}
      {children}
      {displayLabel && description}
      {errors}
      {help}
    </div>
  );
}
