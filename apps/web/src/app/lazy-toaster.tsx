import { useSyncExternalStore } from 'react';
import { loadedToasts, subscribeToastsLoaded } from '../lib/notify.ts';

/**
 * sonner's <Toaster>, mounted once sonner has loaded (on the first toast, see lib/notify.ts), so the
 * first screen does not carry it. Toasts fired before it mounts are shown when it subscribes.
 */
export function LazyToaster() {
  const sonner = useSyncExternalStore(subscribeToastsLoaded, loadedToasts, () => null);
  if (!sonner) return null;
  const { Toaster } = sonner;
  return <Toaster position="top-right" closeButton richColors />;
}
