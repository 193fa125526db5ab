import { queryOptions } from '@tanstack/react-query';

/** How often a top-bar bell's count may be read again while the console is in use. */
const BELL_COUNT_STALE_MS = 60_000;

/** What a bell counts: the open items of its kind. */
export type BellCount = { open: number };

/**
 * A top-bar bell's count (the alarms', the break-glass uses'): read again when stale on a new screen,
 * on the window's focus and after an action that changes it; never by a timer, because every request
 * counts as activity and a poll would keep an idle session alive past its idle limit (decision 049).
 */
export const bellCountOptions = (
  queryKey: readonly unknown[],
  read: (signal?: AbortSignal) => Promise<BellCount>,
) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => read(signal),
    staleTime: BELL_COUNT_STALE_MS,
    refetchOnWindowFocus: true,
    // A bell that cannot be read stays as it was: no toast on every screen for it.
    meta: { silentError: true },
  });
export type BellCountOptions = ReturnType<typeof bellCountOptions>;
