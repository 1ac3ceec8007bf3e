import { useCallback, useEffect, useState } from 'react';
import { load, peek } from '../../data/data-store.ts';

/**
 * Reads a cached data area (fresh for 5 minutes); `reload(true)` forces a refetch. With
 * `enabled` false nothing is fetched (the screen reads the device database instead).
 */
export function useStore<T>(key: string, fetcher: () => Promise<T>, enabled = true) {
  const [data, setData] = useState<T | undefined>(() => peek<T>(key));
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(data === undefined && enabled);
  const reload = useCallback(
    (force = false) => {
      setLoading(true);
      return load(key, fetcher, force)
        .then((v) => {
          setData(v);
          setError(null);
          return v;
        })
        .catch((e) => {
          setError(e);
          return undefined;
        })
        .finally(() => setLoading(false));
    },
    // The loader is keyed by `key`: a new closure per render must not refetch.
    [key],
  );
  useEffect(() => {
    if (enabled) void reload(false);
  }, [reload, enabled]);
  return { data, error, loading, reload };
}
