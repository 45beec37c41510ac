import { useMemo, useState, type ReactNode } from 'react';
import Form, { type IChangeEvent } from '@rjsf/core';
import type { CustomValidator, ErrorSchema } from '@rjsf/utils';
import type { FormDescriptor, JsonSchema } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { depotTemplates } from '../../design/rjsf';
import { assertWidgetsRegistered, getWidgetRegistry, type WidgetRegistry } from './widgetRegistry';
import { buildFormSchema, confirmKey, toPayload, type FormMode } from './formSchema';
import { formValidator } from './validator';
import { transformErrors } from './transformErrors';

export interface SchemaFormProps {
  form: FormDescriptor;
  entitySchema: JsonSchema;
  mode: FormMode;
  formData: Row;
  /** The choices of `form.options` fields, by field. */
  choices?: Record<string, string[]>;
  /** Messages the server gave for single fields (a 4xx with `errors[].field`). */
  serverErrors?: Record<string, string[]>;
  disabled?: boolean;
  /** The widgets a uiSchema may name; the default registry unless a test or screen supplies one. */
  widgets?: WidgetRegistry;
  onChange: (data: Row) => void;
  /** Called with valid data, retype fields and empty values removed. */
  onSubmit: (payload: Row) => void;
  /** The buttons (at least a submit button). */
  children: ReactNode;
}

const templates = depotTemplates();

/** An rjsf form built from a descriptor's `form` block and its entity schema. */
export function SchemaForm(props: SchemaFormProps) {
  const {
    form,
    entitySchema,
    mode,
    formData,
    choices,
    serverErrors,
    disabled,
    onChange,
    onSubmit,
    children,
  } = props;
  const widgets = useMemo(() => props.widgets ?? getWidgetRegistry(), [props.widgets]);
  const build = useMemo(
    () => buildFormSchema(form, entitySchema, mode, choices),
    [form, entitySchema, mode, choices],
  );
  assertWidgetsRegistered(build.uiSchema, widgets);
  // Errors show on submit first, then follow every change, so a fixed field clears at once.
  const [submitAttempted, setSubmitAttempted] = useState(false);

  const customValidate = useMemo<CustomValidator<Row>>(() => {
    const confirm = form.confirm;
    return (data, errors) => {
      if (!confirm || !data) return errors;
      const key = confirmKey(confirm.field);
      const value = data[confirm.field] ?? '';
      const retyped = data[key] ?? '';
      if (value !== retyped) errors[key]?.addError(confirm.message);
      return errors;
    };
  }, [form.confirm]);

  const extraErrors = useMemo(() => {
    if (!serverErrors || Object.keys(serverErrors).length === 0) return undefined;
    return Object.fromEntries(
      Object.entries(serverErrors).map(([field, messages]) => [field, { __errors: messages }]),
    ) as ErrorSchema<Row>;
  }, [serverErrors]);

  return (
    <Form<Row>
      schema={build.schema}
      uiSchema={build.uiSchema}
      formData={formData}
      validator={formValidator}
      widgets={widgets.entries}
      templates={templates}
      customValidate={customValidate}
      transformErrors={transformErrors}
      extraErrors={extraErrors}
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
      liveValidate={submitAttempted ? 'onChange' : undefined}
      disabled={disabled}
      onError={() => setSubmitAttempted(true)}
      onChange={(event: IChangeEvent<Row>) => onChange(event.formData ?? {})}
      onSubmit={(event: IChangeEvent<Row>) =>
        onSubmit(toPayload(build.schema, event.formData ?? {}))
      }
    >
      {children}
    </Form>
  );
}
