import type { ReactNode } from 'react';
import { isSettingsDescriptor } from '../../api/descriptor';
import { errorMessage } from '../../api/errorMessage';
import { useDescriptor } from '../descriptors/useDescriptor';
import { DEFAULT_ERROR_MESSAGE, LOADING_LABEL } from '../messages';
import { settingsModelOf, type SettingsModel } from './model';
import { SettingsFormPage } from './SettingsFormPage';

interface SettingsScreenProps {
  /** The settings screen's descriptor id: its form and entity schema come from the server. */
  screenId: string;
  /** A bespoke page's own model (its own calls or saved message); else the descriptor's calls. */
  model?: SettingsModel;
  title?: string;
  children?: ReactNode;
}

/**
 * A settings document's page from its descriptor (schemas/screens, `store.kind: single`):
 * the engine shows it for such a screen, and a bespoke page wraps it to add its own part.
 */
export function SettingsScreen({ screenId, model, title, children }: SettingsScreenProps) {
  const { descriptor, error } = useDescriptor(screenId);
  if (error) return <p role="alert">{errorMessage(error, DEFAULT_ERROR_MESSAGE)}</p>;
  if (!descriptor) return <p role="status">{LOADING_LABEL}</p>;
  if (!isSettingsDescriptor(descriptor))
    throw new Error(`Screen '${screenId}' is not one settings document (store.kind single)`);
  return (
    <SettingsFormPage
      descriptor={descriptor}
      model={model ?? settingsModelOf(descriptor)}
      title={title}
    >
      {children}
    </SettingsFormPage>
  );
}
