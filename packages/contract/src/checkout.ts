/*
 * The public checkout's texts, statuses and labels without zod, so the customer's pages (/plans/{id},
 * /success, /cancel) stay small (docs/decisions/028). subscriptions.ts re-exports all of it beside
 * its schemas: import from there anywhere else.
 */

/** docs/product.md §3.4 / §9: 1 Pending, 2 Complete, 3 Expired, 4 Failed; anything else shows N/A. */
export const subscriptionStatuses = { pending: 1, complete: 2, expired: 3, failed: 4 } as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[keyof typeof subscriptionStatuses];

export const planTypes = ['month', 'year'] as const;
export type PlanType = (typeof planTypes)[number];
export const planTypeLabels: Record<PlanType, string> = { month: 'Monthly', year: 'Yearly' };
export const oneTimeLabel = 'One Time';

export const paymentProviders = ['demo', 'stripe'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];

/** Messages of the public checkout (ours: docs/product.md §2.13 lists only the page texts below). */
export const checkoutMessages = {
  notFound: 'This payment link is not valid.',
  expired: 'This payment link has expired. Please ask for a new one.',
  paid: 'This subscription has already been paid.',
  intentMismatch: 'This payment has been replaced. Please start again.',
  webhookNotConfigured: 'Stripe webhooks are not configured',
  webhookBadSignature: 'Invalid Stripe signature',
  paid200: 'Payment succeeded',
} as const;

/** docs/product.md §2.13 "Checkout", /success, /cancel: the texts the pages show. */
export const checkoutTexts = {
  greeting: 'Hello',
  subscribe: 'Subscribe',
  plan: 'Plan',
  amount: 'Amount',
  email: 'Email',
  machineSerialNumber: 'Machine Serial No.',
  startDate: 'Start Date',
  creatingIntent: 'Creating payment intent...',
  backToPlans: 'Back to Plans',
  payNow: 'Pay Now',
  processing: 'Processing...',
  poweredBy: 'Secure payment powered by',
  successTitle: 'Payment Successful!',
  successText: 'Thank you for subscribing to our premium plan. Your subscription is now active.',
  goBack: 'Go Back',
  cancelTitle: 'Payment Cancelled',
  cancelText: 'Your payment was cancelled. You can try again.',
  backToSubscriptions: 'Back to Subscriptions',
  loadError: 'This payment link could not be loaded.',
  noStripeKey: 'Card payments are not configured: set VITE_STRIPE_PUBLISHABLE_KEY and rebuild.',
} as const;
