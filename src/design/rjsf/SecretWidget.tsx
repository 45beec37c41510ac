import { useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { WIDGET_TEXTS } from './widgetTexts';

/**
 * A write-only secret (a token, a password to another system): masked, never filled in by
 * a password manager, shown on demand. The server never sends it back, so an edit form
 * starts empty and says that leaving it so keeps the saved one.
 */
export function SecretWidget(props: WidgetProps) {
  const [shown, setShown] = useState(false);
  const { registry, options } = props;
  const BaseInput = registry.templates.BaseInputTemplate;
  return (
    <div className="secret-field">
      <BaseInput
        {...props}
        type={shown ? 'text' : 'password'}
        placeholder={options.secretKept ? WIDGET_TEXTS.secretKept : props.placeholder}
        // A new-password hint keeps browsers from offering the user's own password here.
        options={{ ...options, inputType: shown ? 'text' : 'password' }}
      />
      <button
        type="button"
        className="btn btn-link"
        aria-pressed={shown}
        aria-controls={props.id}
        onClick={() => setShown(!shown)}
        disabled={props.disabled}
      >
        {shown ? WIDGET_TEXTS.hideSecret : WIDGET_TEXTS.showSecret}
      </button>
    </div>
  );
}
