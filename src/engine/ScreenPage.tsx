import { lazy } from 'react';
import { isSettingsDescriptor } from '../api/descriptor';
import { errorMessage } from '../api/errorMessage';
import { useDescriptor } from './descriptors/useDescriptor';
import type { ScreenView } from './screenPaths';
import { DEFAULT_ERROR_MESSAGE, LOADING_LABEL } from './messages';
import { ListScreen } from './list/ListScreen';

/** Forms bring rjsf and Ajv; only form pages download them. */
const FormScreen = lazy(() => import('./form/FormScreen'));
const SettingsScreen = lazy(() =>
  import('./settings/SettingsScreen').then((module) => ({ default: module.SettingsScreen })),
);

/**
 * One page of an engine screen: loads the descriptor, then renders the list or a form, or a
 * settings document's one form.
 */
export default function ScreenPage({ view }: { view: ScreenView }) {
  const id = view.screen.id;
  const { descriptor, error } = useDescriptor(id);
  if (error) return <p role="alert">{errorMessage(error, DEFAULT_ERROR_MESSAGE)}</p>;
  if (!descriptor) return <p role="status">{LOADING_LABEL}</p>;

  if (isSettingsDescriptor(descriptor)) return <SettingsScreen screenId={id} />;
  if (view.view === 'list') return <ListScreen descriptor={descriptor} />;
  const entityKey = view.view === 'edit' ? view.key : undefined;
  return (
    <FormScreen
      // A new key remounts: going from one user's form to another's starts afresh.
      key={`${id}:${view.view}:${entityKey ?? ''}`}
      descriptor={descriptor}
      mode={view.view === 'new' ? 'create' : 'edit'}
      entityKey={entityKey}
    />
  );
}
