/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API origin; '' (same origin) unless the console is hosted apart from the API. */
  readonly VITE_API_BASE?: string;
  /** Stripe publishable key (pk_test_…): the checkout uses Stripe's Payment Element when set. */
  readonly VITE_STRIPE_PUBLISHABLE_KEY?: string;
  /** The product's public website, opened by Go Back on /success; default: this origin. */
  readonly VITE_PUBLIC_WEBSITE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
