import type * as SonnerModule from 'sonner';
import type { ExternalToast } from 'sonner';

/**
 * The one way the console shows toasts (docs/product.md §4.8: success, info, warning, error, loading; dismissible,
 * top-right). The <Toaster> that displays them is mounted once at the root (app/lazy-toaster.tsx).
 *
 * sonner is not part of the first screen: it loads on the first toast (or when a screen that is
 * about to toast asks for it with preloadToasts()). Toasts fired before it arrives are queued and
 * shown in order; each call still returns its id at once, so a loading toast can be replaced or
 * dismissed before sonner is there.
 */
export type NotifyOptions = ExternalToast;
export type ToastId = string | number;

type Sonner = typeof SonnerModule;
type Kind = 'success' | 'info' | 'warning' | 'error' | 'loading';
type Call =
  | { kind: Kind; message: string; options: NotifyOptions & { id: ToastId } }
  | { kind: 'dismiss'; id?: ToastId };

let sonner: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
let queue: Call[] = [];
let nextId = 0;
const loadListeners = new Set<() => void>();

function run(s: Sonner, call: Call) {
  if (call.kind === 'dismiss') s.toast.dismiss(call.id);
  else s.toast[call.kind](call.message, call.options);
}

/** Loads sonner once; resolves with it. Queued toasts are shown as soon as it is there. */
export function preloadToasts(): Promise<Sonner> {
  loading ??= import('sonner').then((module) => {
    sonner = module;
    const pending = queue;
    queue = [];
    pending.forEach((call) => run(module, call));
    loadListeners.forEach((listener) => listener());
    return module;
  });
  return loading;
}

/** Loads sonner when the browser is idle (a screen that toasts often); returns a cancel. */
export function preloadToastsWhenIdle() {
  if (sonner || loading) return () => {};
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => void preloadToasts(), { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(() => void preloadToasts(), 200);
  return () => clearTimeout(timer);
}

/** sonner once it has loaded, else null: a snapshot for useSyncExternalStore (the Toaster). */
export const loadedToasts = () => sonner;

export function subscribeToastsLoaded(listener: () => void) {
  loadListeners.add(listener);
  return () => {
    loadListeners.delete(listener);
  };
}

function show(kind: Kind, message: string, options?: NotifyOptions): ToastId {
  // Our own id, so the caller gets it even while sonner is still loading.
  const id = options?.id ?? `notify-${++nextId}`;
  const call: Call = { kind, message, options: { ...options, id } };
  if (sonner) run(sonner, call);
  else {
    queue.push(call);
    void preloadToasts();
  }
  return id;
}

export const notify = {
  success: (message: string, options?: NotifyOptions) => show('success', message, options),
  info: (message: string, options?: NotifyOptions) => show('info', message, options),
  warning: (message: string, options?: NotifyOptions) => show('warning', message, options),
  error: (message: string, options?: NotifyOptions) => show('error', message, options),
  /** Stays until replaced: pass its id to success/error, or dismiss it. */
  loading: (message: string, options?: NotifyOptions) => show('loading', message, options),
  dismiss: (id?: ToastId) => {
    if (sonner) {
      sonner.toast.dismiss(id);
      return;
    }
    // Not shown yet: a dismissed toast simply never appears.
    queue = id === undefined ? [] : queue.filter((call) => call.kind === 'dismiss' || call.options.id !== id);
  },
};
