import { lazy, useEffect, useMemo } from 'react';
import { useUnit } from 'effector-react';
import { errorMessage } from '../api/errorMessage';
import { $descriptorErrors, $descriptors, descriptorRequested } from './descriptors/model';
import { getScreenRegistry } from './registry';
import type { ScreenView } from './screenPaths';
import { DEFAULT_ERROR_MESSAGE, LOADING_LABEL } from './messages';
import { ListScreen } from './list/ListScreen';

/** Forms bring rjsf and Ajv; only form pages download them. */
const FormScreen = lazy(() => import('./form/FormScreen'));

/**
 * One descriptor screen page: loads the descriptor, then renders the custom component it
 * names, or the generic list or form.
 */
export default function ScreenPage({ view }: { view: ScreenView }) {
  const id = view.screen.id;
  const [descriptors, errors, requestDescriptor] = useUnit([
    $descriptors,
    $descriptorErrors,
    descriptorRequested,
  ]);
  const screens = useMemo(() => getScreenRegistry(), []);
  useEffect(() => {
    requestDescriptor(id);
  }, [id, requestDescriptor]);

  const descriptor = descriptors[id];
  if (errors[id]) return <p role="alert">{errorMessage(errors[id], DEFAULT_ERROR_MESSAGE)}</p>;
  if (!descriptor) return <p role="status">{LOADING_LABEL}</p>;

  const entityKey = view.view === 'edit' ? view.key : undefined;
  if (descriptor.component) {
    const Custom = screens.get(descriptor.component);
    return <Custom descriptor={descriptor} view={view.view} entityKey={entityKey} />;
  }
  if (view.view === 'list') return <ListScreen descriptor={descriptor} />;
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
