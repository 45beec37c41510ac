import type { RegistryFieldsType, RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import { ArrayFieldItemTemplate, ArrayFieldTemplate } from './ArrayTemplates';
import { BaseInputTemplate } from './BaseInputTemplate';
import { CheckboxWidget } from './CheckboxWidget';
import { FieldErrorTemplate } from './FieldErrorTemplate';
import { FieldTemplate } from './FieldTemplate';
import { MultiSelectWidget } from './MultiSelectWidget';
import { ObjectFieldTemplate } from './ObjectFieldTemplate';
import { SelectWidget } from './SelectWidget';
import { TextareaWidget } from './TextareaWidget';
import { SecretWidget } from './SecretWidget';
import { CronWidget } from './CronWidget';
import { ServerPathWidget } from './ServerPathWidget';
import { AntPatternsWidget } from './AntPatternsWidget';
import { KeyValueField } from './KeyValueField';

/**
 * Depot's rjsf widgets by registry name; rjsf's `checkboxes` (CheckboxesWidget) is the
 * accessible checkbox group. No CSS is imported here, so that Node (schemas:check) can load
 * the registry; SchemaForm brings rjsf.css.
 */
export function depotWidgets(): RegistryWidgetsType {
  return {
    CheckboxWidget,
    TextareaWidget,
    SelectWidget,
    MultiSelectWidget,
    CheckboxesWidget: MultiSelectWidget,
    SecretWidget,
    CronWidget,
    ServerPathWidget,
    AntPatternsWidget,
  };
}

/** Depot's rjsf fields by the name a uiSchema's `ui:field` uses. */
export function depotFields(): RegistryFieldsType {
  return { keyValue: KeyValueField };
}

/** Depot's rjsf templates; the ones not listed stay rjsf's core templates. */
export function depotTemplates(): Partial<TemplatesType> {
  return {
    ArrayFieldTemplate,
    ArrayFieldItemTemplate,
    BaseInputTemplate,
    FieldTemplate,
    FieldErrorTemplate,
    ObjectFieldTemplate,
  };
}
