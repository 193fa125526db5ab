import { useCallback } from 'react';
import { useUrlSearchParams } from './use-url-search-params.ts';

/**
 * One filter of a list kept in the URL beside useUrlListState's page and search (?state=past&rule=offline),
 * so a reload, Back or a link from elsewhere (the top bar's bell, a dashboard figure) shows that
 * filter. A value outside `values` reads as `fallback`; the fallback is left out of the URL; a
 * change starts the list at page 1.
 */
export function useUrlFilter<V extends string>(
  name: string,
  values: readonly V[],
  fallback: V | '',
): [V | '', (next: V | '') => void] {
  const [params, setParams] = useUrlSearchParams();
  const raw = params.get(name);
  const value = raw !== null && (values as readonly string[]).includes(raw) ? (raw as V) : fallback;
  const change = useCallback(
    (next: V | '') =>
      setParams((current) => {
        const updated = new URLSearchParams(current);
        if (next === fallback || next === '') updated.delete(name);
        else updated.set(name, next);
        updated.delete('page');
        return updated;
      }),
    [fallback, name, setParams],
  );
  return [value, change];
}
