import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../api/errorMessage';

export interface KeyedData<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Data for what a view shows, named by `key` (a node, a build and its tab): fetched when the key changes and on
 * `reload`; an answer for a key no longer shown is dropped. Shared by the tree's tabs and the build pages.
 */
export function useKeyedData<T>(
  key: string,
  load: () => Promise<T>,
  fallback: string,
): KeyedData<T> {
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null }>({
    key: '',
    data: null,
    error: null,
  });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ key, data, error: null }),
      (error: unknown) =>
        current && setState({ key, data: null, error: errorMessage(error, fallback) }),
    );
    return () => {
      current = false;
    };
    // `load` is a new closure each render; the node's key and reloads decide when to fetch
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, generation]);

  const fresh = state.key === key;
  return {
    data: fresh ? state.data : null,
    error: fresh ? state.error : null,
    loading: !fresh,
    reload,
  };
}
