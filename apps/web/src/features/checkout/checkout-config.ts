import type { PaymentProviderName } from '@app/contract/checkout';

/** Build-time settings of the public checkout. */
export const stripePublishableKey = import.meta.env.VITE_STRIPE_PUBLISHABLE_KEY?.trim() || undefined;

/** Go Back on /success opens the product's public website (docs/product.md §2.13); this origin when not configured. */
export const publicWebsiteUrl = () =>
  import.meta.env.VITE_PUBLIC_WEBSITE_URL?.trim() || window.location.origin;

export const providerNames: Record<PaymentProviderName, string> = {
  stripe: 'Stripe',
  demo: 'the built-in demo provider (test mode)',
};

export const successPath = (subscriptionId: string) =>
  `/success?subscription=${encodeURIComponent(subscriptionId)}`;
