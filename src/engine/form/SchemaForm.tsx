import { useMemo, useRef, useState, type ReactNode } from 'react';
import Form, { type IChangeEvent } from '@rjsf/core';
import type { CustomValidator, ErrorSchema, RJSFSchema } from '@rjsf/utils';
import type { FormAction, FormDescriptor, JsonSchema } from '../../api/descriptor';
import type { Row } from '../../api/resource';
import { depotTemplates } from '../../design/rjsf';
import { nextCronRuns } from '../../design/rjsf/cronRuns';
import '../../design/rjsf/rjsf.css';
import {
  assertWidgetsRegistered,
  getFieldRegistry,
  getWidgetRegistry,
  type WidgetRegistry,
} from './widgetRegistry';
import { buildFormSchema, confirmKey, toPayload, type FormMode } from './formSchema';
import { formValidator } from './validator';
import { transformErrors } from './transformErrors';
import { CRON_INVALID_MESSAGE } from '../messages';

export interface SchemaFormProps {
  /** The <form>'s id, for submit buttons outside it (a dialog's actions). */
  id?: string;
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
  /** Called, with the same valid payload, when one of `form.actions` is clicked. */
  onAction?: (action: FormAction, payload: Row) => void;
  /** Actions that are under way: their buttons are disabled. */
  busyActions?: string[];
  /** The buttons (at least a submit button). */
  children: ReactNode;
}

const templates = depotTemplates();
const fields = getFieldRegistry();

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
    onAction,
    busyActions = [],
    children,
  } = props;
  const formRef = useRef<Form<Row>>(null);
  const widgets = useMemo(() => props.widgets ?? getWidgetRegistry(), [props.widgets]);
  const build = useMemo(
    () => buildFormSchema(form, entitySchema, mode, choices),
    [form, entitySchema, mode, choices],
  );
  assertWidgetsRegistered(
    build.uiSchema,
    widgets,
    build.schema.properties as Record<string, RJSFSchema>,
  );
  // Errors show on submit first, then follow every change, so a fixed field clears at once.
  const [submitAttempted, setSubmitAttempted] = useState(false);

  const customValidate = useMemo<CustomValidator<Row>>(() => {
    const confirm = form.confirm;
    return (data, errors) => {
      if (!data) return errors;
      // An expression the schema lets through may still never run (February 30th).
      for (const field of build.cronFields) {
        const cron = data[field];
        if (typeof cron === 'string' && cron.trim() && nextCronRuns(cron, 1).length === 0)
          errors[field]?.addError(CRON_INVALID_MESSAGE);
      }
      if (!confirm) return errors;
      const key = confirmKey(confirm.field);
      const value = data[confirm.field] ?? '';
      const retyped = data[key] ?? '';
      if (value !== retyped) errors[key]?.addError(confirm.message);
      return errors;
    };
  }, [form.confirm, build.cronFields]);

  // An action sends what Save would: the form is checked first, and shows why if it fails.
  const runAction = (action: FormAction) => {
    if (!formRef.current?.validateForm()) {
      setSubmitAttempted(true);
      return;
    }
    onAction?.(action, toPayload(build.schema, formData));
  };

  const extraErrors = useMemo(() => {
    if (!serverErrors || Object.keys(serverErrors).length === 0) return undefined;
    return Object.fromEntries(
      Object.entries(serverErrors).map(([field, messages]) => [field, { __errors: messages }]),
    ) as ErrorSchema<Row>;
  }, [serverErrors]);

  return (
    <Form<Row>
      ref={formRef}
      id={props.id}
      schema={build.schema}
      uiSchema={build.uiSchema}
      formData={formData}
      validator={formValidator}
      widgets={widgets.entries}
      fields={fields.entries}
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
      {(form.actions ?? []).length > 0 && (
        <div className="form-actions">
          {(form.actions ?? []).map((action) => (
            <button
              key={action.id}
              type="button"
              className="btn"
              disabled={disabled || busyActions.includes(action.id)}
              onClick={() => runAction(action)}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </Form>
  );
}
