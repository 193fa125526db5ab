import { useCallback, useMemo } from 'react';
import { useUrlSearchParams } from './use-url-search-params.ts';

export type UrlFilters<K extends string> = {
  /** Each filter's value from the URL; absent when not set. */
  values: Partial<Record<K, string>>;
  /** Sets (or with '' clears) filters together, back to page 1. */
  set: (changes: Partial<Record<K, string>>) => void;
  /** Clears every one of these filters. */
  clear: () => void;
  /** Whether any of them is set. */
  active: boolean;
};

/**
 * A list's facets kept in the URL beside its page and search (?status=2&country=Germany), so a
 * reload, Back, a link or a saved view shows them. The server checks each value; one it refuses
 * reads as an empty list, as any refused list request does.
 */
export function useUrlFilters<K extends string>(names: readonly K[]): UrlFilters<K> {
  const [params, setParams] = useUrlSearchParams();
  const key = names.map((name) => `${name}=${params.get(name) ?? ''}`).join('&');
  const values = useMemo(() => {
    const found: Partial<Record<K, string>> = {};
    for (const name of names) {
      const value = params.get(name);
      if (value) found[name] = value;
    }
    return found;
    // `key` holds exactly what is read here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const set = useCallback(
    (changes: Partial<Record<K, string>>) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes) as [K, string | undefined][]) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        next.delete('page');
        return next;
      }),
    [setParams],
  );
  const namesKey = names.join(',');
  const clear = useCallback(
    () =>
      set(Object.fromEntries(namesKey.split(',').map((name) => [name, ''])) as Partial<Record<K, string>>),
    [namesKey, set],
  );
  return { values, set, clear, active: Object.keys(values).length > 0 };
}
