import { checkoutTexts } from '@app/contract/checkout';
import { errorMessage } from '#web/lib/api-client.ts';
import { pageTitle } from '#web/lib/page-title.ts';
import { reconcilePayment } from '../api/reconcile-payment.ts';
import { publicWebsiteUrl } from '../checkout-config.ts';
import { cancelPath, checkoutPageTitles } from '../checkout-paths.ts';

/*
 * /success and /cancel (docs/product.md §2.13) without React: a heading, an icon, a sentence and one button are all
 * they show, and React alone is more than the 60 kB a phone may load for them (docs/decisions/028).
 * The markup is that of app/layouts/public-shell.tsx around components/centered-card.tsx.
 */

type Outcome = 'success' | 'cancel';
type Attributes = Record<string, string>;

function element(tag: string, attributes: Attributes, ...children: (Node | string)[]) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** The large tick or cross above the outcome; decorative, the heading says the same. */
function outcomeIcon(outcome: Outcome) {
  const svg = (tag: string, attributes: Attributes) => {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    return node;
  };
  const icon = svg('svg', {
    width: '56',
    height: '56',
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
  });
  icon.append(
    svg('circle', { cx: '12', cy: '12', r: '10' }),
    svg('path', { d: outcome === 'success' ? 'M8 12l3 3 5-6' : 'M15 9l-6 6M9 9l6 6' }),
  );
  const tone = outcome === 'success' ? 'text-success' : 'text-danger';
  return element('div', { class: `d-flex justify-content-center mb-3 ${tone}`, 'aria-hidden': 'true' }, icon);
}

function page(outcome: Outcome) {
  const success = outcome === 'success';
  const action = success
    ? element('button', { type: 'button', class: 'btn btn-primary w-100' }, checkoutTexts.goBack)
    : element(
        'a',
        // The registry's paths.subscriptions, written out: this page loads none of the console (decision 028).
        { href: '/admin/subscription-management', class: 'btn btn-primary w-100' },
        checkoutTexts.backToSubscriptions,
      );
  // Go Back opens the product's public website (docs/product.md §2.13) in a new tab.
  if (success)
    action.addEventListener('click', () => window.open(publicWebsiteUrl(), '_blank', 'noopener,noreferrer'));
  const card = element(
    'div',
    { class: 'auth-card card shadow-sm text-center' },
    element(
      'div',
      { class: 'card-body p-4 p-sm-5' },
      element(
        'h1',
        { class: 'h3 mb-3 text-center' },
        success ? checkoutTexts.successTitle : checkoutTexts.cancelTitle,
      ),
      outcomeIcon(outcome),
      element(
        'p',
        { class: 'text-center mb-4' },
        success ? checkoutTexts.successText : checkoutTexts.cancelText,
      ),
      action,
    ),
  );
  return element(
    'div',
    { class: 'public-shell' },
    element('main', { id: 'main-content', tabindex: '-1', class: 'public-main' }, card),
  );
}

function show(container: HTMLElement, outcome: Outcome) {
  document.title = pageTitle(checkoutPageTitles[outcome]);
  container.replaceChildren(page(outcome));
}

/**
 * Shows /success or /cancel in `container`. /success also asks the server to reconcile, so the link is
 * Complete even without a webhook; a redirect-based payment that failed comes back to /success with
 * Stripe's redirect_status=failed and is shown /cancel instead, in place of the entry in history.
 */
export function showPaymentOutcome(
  container: HTMLElement,
  outcome: Outcome,
  location: Location = window.location,
) {
  const params = new URLSearchParams(location.search);
  if (outcome === 'success' && params.get('redirect_status') === 'failed') {
    window.history.replaceState(null, '', cancelPath);
    show(container, 'cancel');
    return;
  }
  show(container, outcome);
  const subscriptionId = params.get('subscription');
  if (outcome === 'success' && subscriptionId)
    reconcilePayment(subscriptionId).catch((error: unknown) =>
      console.error(errorMessage(error, 'Reconciliation failed')),
    );
}
