import type { RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import { ArrayFieldItemTemplate, ArrayFieldTemplate } from './ArrayTemplates';
import { BaseInputTemplate } from './BaseInputTemplate';
import { CheckboxWidget } from './CheckboxWidget';
import { FieldErrorTemplate } from './FieldErrorTemplate';
import { FieldTemplate } from './FieldTemplate';
import { MultiSelectWidget } from './MultiSelectWidget';
import { ObjectFieldTemplate } from './ObjectFieldTemplate';
import { SelectWidget } from './SelectWidget';
import { TextareaWidget } from './TextareaWidget';
import './rjsf.css';

/** Depot's rjsf widgets, by the names a uiSchema uses (`ui:widget`). */
export function depotWidgets(): RegistryWidgetsType {
  return { CheckboxWidget, TextareaWidget, SelectWidget, MultiSelectWidget };
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
