import { Component, StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { checkoutPageTitles, planIdOf } from '../features/checkout/checkout-paths.ts';
import { PlansPage } from '../features/checkout/pages/plans-page.tsx';
import { pageTitle } from '../lib/page-title.ts';
import { describeError, ErrorScreen } from './error-screen.tsx';
import { PublicShell } from './layouts/public-shell.tsx';
import { LazyToaster } from './lazy-toaster.tsx';

/** One broken render shows docs/product.md §8's error screen instead of a blank page. */
class CheckoutErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error() };
  }
  override render() {
    return this.state.error === undefined ? (
      this.props.children
    ) : (
      <ErrorScreen detail={describeError(this.state.error)} standalone />
    );
  }
}

/**
 * /plans/{id}, the customer's payment page, as its own small app: React and the page, without the
 * router, the query cache or the console's layout (docs/decisions/028). /success and /cancel need no
 * React at all (features/checkout/pages/payment-outcome-page.ts).
 */
export function mountPlans(container: HTMLElement, location: Location = window.location) {
  document.title = pageTitle(checkoutPageTitles.plans);
  createRoot(container).render(
    <StrictMode>
      <CheckoutErrorBoundary>
        <PublicShell>
          <PlansPage id={planIdOf(location.pathname)} />
        </PublicShell>
      </CheckoutErrorBoundary>
      <LazyToaster />
    </StrictMode>,
  );
}
