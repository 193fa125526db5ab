/*
 * Every route of the console (docs/product.md §2): its pattern for the router and a typed href builder
 * for links and navigations, so a path is written once. The texts are the spec's; do not rename them.
 *
 * The public checkout's pages, and the API client they use, write their few paths out instead: they must
 * load nothing of the console (docs/decisions/028). Tests hold those copies to this file.
 */

/** Query values a screen reads from its URL; empty ones are left out of the href. */
type Query = Record<string, string | number | undefined>;

/** The URL state of a paged list (lib/use-url-list-state.ts). */
type ListQuery = {
  page?: number;
  limit?: number;
  sort?: string;
  direction?: 'asc' | 'desc';
  search?: string;
};

/** What the router and the sidebar need of a route: its absolute pattern. */
export type RoutePattern = { readonly path: string };

function withQuery(path: string, query: Query = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * A route without path parameters; `Q` names the query it reads (none by default). A screen that
 * only the sidebar links to may name its route in its own feature's declaration (decision 067);
 * one that other screens link to is named below, since a feature never imports another.
 */
export function fixed<Q extends Query = Record<never, string>>(path: string) {
  return { path, href: (query?: Q) => withQuery(path, query) };
}

/** A route ending in one parameter, e.g. /admin/view-role/:id; the value is URL-encoded. */
function withParam<K extends string>(prefix: string, key: K) {
  return {
    path: `${prefix}/:${key}`,
    href: (params: Record<K, string>) => `${prefix}/${encodeURIComponent(params[key])}`,
  };
}

export const paths = {
  // Public (docs/product.md §2.1): '/' and '/login' show sign-in as well.
  signIn: fixed('/login-admin'),
  signInAlias: fixed('/login'),
  forgotPassword: fixed('/forgot-password'),
  enterOtp: fixed('/enter-otp'),
  resetPassword: withParam('/reset-password', 'token'),

  /** The guarded part of the console; /admin itself redirects to sign-in. */
  admin: { path: '/admin' },
  // Admin (docs/product.md §2.3), in sidebar order; literal texts, as they minify smaller than joined ones.
  dashboard: fixed('/admin/dashboard'),
  widgets: fixed('/admin/widgets'),
  devices: fixed<
    ListQuery & {
      online?: 'online' | 'offline' | 'never';
      licence?: 'active' | 'grace' | 'lapsed' | 'exempt' | 'unlicensed';
      licenceEndsWithin?: number;
      settings?: 'drift' | 'applied';
      commands?: 'failed';
    }
  >('/admin/device'),
  deviceDetails: withParam('/admin/device-details', 'id'),
  viewDoctor: withParam('/admin/view-doctor', 'id'),
  viewPatient: withParam('/admin/view-patient', 'id'),
  viewTechnician: withParam('/admin/view-technician', 'id'),
  roles: fixed<ListQuery>('/admin/roles'),
  viewRole: withParam('/admin/view-role', 'id'),
  logs: fixed('/admin/logs-management'),
  users: fixed<ListQuery>('/admin/user-management'),
  viewUser: withParam('/admin/view-user', 'id'),
  subscriptions: fixed<ListQuery & { status?: number; expiresWithin?: number }>(
    '/admin/subscription-management',
  ),
  // Ours (issue 34): one subscription (details, machine, payments, timeline); Device Details links here.
  viewSubscription: withParam('/admin/view-subscription', 'id'),
  // Ours (issue 39): the customers (clinics) and one customer's page; Device Details and subscriptions link here.
  customers: fixed<ListQuery & { country?: string }>('/admin/customers'),
  viewCustomer: withParam('/admin/customers', 'id'),
  appUpdates: fixed<ListQuery>('/admin/app-update'),
  // Ours (decision 049): open or past alarms, one rule or all.
  alarms: fixed<ListQuery & { state?: 'open' | 'past'; rule?: string }>('/admin/alarms'),
  // Ours (decision 050): every treatment record, optionally between two UTC days (the dashboard's links).
  treatments: fixed<ListQuery & { from?: string; to?: string }>('/admin/treatments'),
  changePassword: fixed('/admin/change-password'),
  profile: fixed('/admin/profile'),
  updateProfile: fixed('/admin/update-profile'),

  // Ours (issue 39 item 3, decision 088): a clinic user's invitation link, and the clinic portal.
  invitation: withParam('/invite', 'token'),
  clinic: fixed('/clinic'),
  clinicUsers: fixed('/clinic/users'),
  // The clinic portal's pages (issue 39 item 5).
  clinicMachines: fixed('/clinic/machines'),
  clinicFigures: fixed('/clinic/figures'),
  clinicBilling: fixed('/clinic/billing'),
  clinicUsage: fixed('/clinic/usage'),
  clinicActivity: fixed('/clinic/activity'),

  // The public checkout (docs/product.md §2.13): the console only hands these to a page load.
  plans: { path: '/plans/:id?', href: withParam('/plans', 'id').href },
  paymentSuccess: fixed<{ subscription?: string }>('/success'),
  paymentCancel: fixed('/cancel'),
};
