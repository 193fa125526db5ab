import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { outsideModalsAttribute } from '../lib/outside-modals.ts';
import { loadedToasts, subscribeToastsLoaded } from '../lib/notify.ts';
import { appliedTheme, subscribeTheme } from '../lib/color-mode.ts';

/**
 * sonner's <Toaster>, mounted once sonner has loaded (on the first toast, see lib/notify.ts), so the
 * first screen does not carry it. Toasts fired before it mounts are shown when it subscribes.
 * It sits directly in <body>, marked to stay live while a modal makes the rest of the page inert,
 * so a toast about the open dialog is still announced and can be closed.
 */
export function LazyToaster() {
  const sonner = useSyncExternalStore(subscribeToastsLoaded, loadedToasts, () => null);
  // Toasts follow the console's colour mode (decision 054).
  const theme = useSyncExternalStore(subscribeTheme, appliedTheme, () => 'light' as const);
  if (!sonner) return null;
  const { Toaster } = sonner;
  return createPortal(
    <div {...{ [outsideModalsAttribute]: '' }}>
      {/* dir: without it sonner reads <html>'s computed direction on every render, a forced style
          recalculation in a browser (and a quarter of some component tests' time in jsdom). */}
      <Toaster position="top-right" closeButton richColors theme={theme} dir="ltr" />
    </div>,
    document.body,
  );
}
