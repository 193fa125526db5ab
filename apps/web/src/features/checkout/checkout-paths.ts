/*
 * The public checkout's paths (docs/product.md §2.13). The entry (src/main.tsx) reads them to choose between the
 * console and the checkout before anything else loads, so this file imports nothing.
 */
export type CheckoutPage = 'plans' | 'success' | 'cancel';

/** Which checkout page a path shows: /plans, /plans/{id}, /success, /cancel; null for the console. */
export function checkoutPageOf(pathname: string): CheckoutPage | null {
  // Matched as the router matched 'plans/:id?', 'success' and 'cancel': any case, one trailing slash.
  if (/^\/plans(\/[^/]+)?\/?$/i.test(pathname)) return 'plans';
  if (/^\/success\/?$/i.test(pathname)) return 'success';
  if (/^\/cancel\/?$/i.test(pathname)) return 'cancel';
  return null;
}

/** The {id} of /plans/{id}, decoded; undefined for /plans alone or an id that is not valid URL text. */
export function planIdOf(pathname: string): string | undefined {
  const raw = /^\/plans\/([^/]+)/i.exec(pathname)?.[1];
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The document titles (docs/product.md §1 adds ' | ADMIN'). */
export const checkoutPageTitles: Record<CheckoutPage, string> = {
  plans: 'Plans',
  success: 'Payment Success',
  cancel: 'Payment Cancelled',
};

export const cancelPath = '/cancel';

/**
 * Leaving the payment step for /success or /cancel is a page load: the outcome pages are their own
 * small module without React (docs/decisions/028). An object, so tests can replace `go`.
 */
export const checkoutNavigation = {
  go: (path: string) => window.location.assign(path),
};
