import { useEffect } from 'react';
import { useUnit } from 'effector-react';
import { $descriptorErrors, $descriptors, descriptorRequested } from './model';

/** A screen's full descriptor, asked for on first use: undefined while it loads or failed. */
export function useDescriptor(id: string) {
  const [descriptors, errors, requestDescriptor] = useUnit([
    $descriptors,
    $descriptorErrors,
    descriptorRequested,
  ]);
  useEffect(() => {
    requestDescriptor(id);
  }, [id, requestDescriptor]);
  return { descriptor: descriptors[id], error: errors[id] };
}
