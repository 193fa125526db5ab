import 'bootstrap/dist/css/bootstrap.min.css';
import './styles/app.css';
import { checkoutPageOf } from './features/checkout/checkout-paths.ts';
import { applyColorMode, cachedColorMode } from './lib/color-mode.ts';

/*
 * The entry only chooses what to load (docs/decisions/028): the customer's checkout pages come
 * without the console's router and layout (/plans/{id}) or without React at all (/success, /cancel),
 * every other path gets the console. Both are fetched as soon as this small file has run.
 */
const container = document.getElementById('root')!;
const page = checkoutPageOf(window.location.pathname);

// The console starts in the colour mode it last showed, before its first paint (decision 054).
if (!page) applyColorMode(cachedColorMode());

const shown =
  page === 'plans'
    ? import('./app/checkout-app.tsx').then((m) => m.mountPlans(container))
    : page
      ? import('./features/checkout/pages/payment-outcome-page.ts').then((m) =>
          m.showPaymentOutcome(container, page),
        )
      : import('./app/console.tsx').then((m) => m.mountConsole(container));

shown.catch((error: unknown) => {
  // A chunk that did not arrive (a new release, a dropped connection): the next load fetches it anew.
  console.error(error);
});
