import { useCallback, useSyncExternalStore } from 'react';

/** Below Bootstrap's sm breakpoint: a phone, where screens fold or reorder what a wider one shows. */
export const usePhone = () => useMediaQuery('(max-width: 575.98px)');

/** True while the media query matches; false where matchMedia does not exist (tests). */
export function useMediaQuery(query: string) {
  const subscribe = useCallback(
    (notify: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}
