import { useEffect, useState } from 'react';

/** docs/product.md §9: search is debounced by 900 ms. */
export const SEARCH_DEBOUNCE_MS = 900;

export function useDebouncedValue<T>(value: T, delay = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
