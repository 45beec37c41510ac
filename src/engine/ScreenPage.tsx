import { lazy, useEffect } from 'react';
import { useUnit } from 'effector-react';
import { errorMessage } from '../api/errorMessage';
import { $descriptorErrors, $descriptors, descriptorRequested } from './descriptors/model';
import type { ScreenView } from './screenPaths';
import { DEFAULT_ERROR_MESSAGE, LOADING_LABEL } from './messages';
import { ListScreen } from './list/ListScreen';

/** Forms bring rjsf and Ajv; only form pages download them. */
const FormScreen = lazy(() => import('./form/FormScreen'));

/** One page of an engine screen: loads the descriptor, then renders the list or a form. */
export default function ScreenPage({ view }: { view: ScreenView }) {
  const id = view.screen.id;
  const [descriptors, errors, requestDescriptor] = useUnit([
    $descriptors,
    $descriptorErrors,
    descriptorRequested,
  ]);
  useEffect(() => {
    requestDescriptor(id);
  }, [id, requestDescriptor]);

  const descriptor = descriptors[id];
  if (errors[id]) return <p role="alert">{errorMessage(errors[id], DEFAULT_ERROR_MESSAGE)}</p>;
  if (!descriptor) return <p role="status">{LOADING_LABEL}</p>;

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
