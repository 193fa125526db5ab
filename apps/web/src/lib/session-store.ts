import type { AdminProfile } from '@app/contract/auth';

/**
 * The client session (docs/product.md §3.1): persisted in localStorage under 'auth' as
 * { details, toggle, deviceDetail, userDetails }. Signed in = details hold a token (or access_token).
 */
export type SessionDetails = Partial<AdminProfile> & {
  token?: string;
  access_token?: string;
  timeZone?: string;
  [field: string]: unknown;
};

export type SessionState = {
  details: SessionDetails | null;
  /** Sidebar open. */
  toggle: boolean;
  deviceDetail: Record<string, unknown> | null;
  userDetails: (Partial<AdminProfile> & Record<string, unknown>) | null;
};

export const SESSION_STORAGE_KEY = 'auth';

/** The state with nothing stored: signed out, sidebar open. */
export const initialSessionState: SessionState = {
  details: null,
  toggle: true,
  deviceDetail: null,
  userDetails: null,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readStored(): SessionState {
  try {
    const raw = globalThis.localStorage?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return initialSessionState;
    const parsed: unknown = JSON.parse(raw);
    if (!isRecord(parsed)) return initialSessionState;
    return {
      details: isRecord(parsed.details) ? (parsed.details as SessionDetails) : null,
      toggle: typeof parsed.toggle === 'boolean' ? parsed.toggle : true,
      deviceDetail: isRecord(parsed.deviceDetail) ? parsed.deviceDetail : null,
      userDetails: isRecord(parsed.userDetails) ? (parsed.userDetails as SessionState['userDetails']) : null,
    };
  } catch {
    // A hand-edited or corrupt entry must not lock the admin out of the sign-in page.
    return initialSessionState;
  }
}

let state: SessionState = readStored();
const listeners = new Set<() => void>();
const signOutListeners = new Set<() => void>();

export const tokenOf = (s: SessionState) => {
  const token = s.details?.token ?? s.details?.access_token;
  return typeof token === 'string' && token !== '' ? token : null;
};

function commit(next: SessionState, persist = true) {
  const wasSignedIn = tokenOf(state) !== null;
  state = next;
  if (persist) {
    try {
      globalThis.localStorage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(state));
    } catch {
      // Storage full or disabled: the session still works for this tab.
    }
  }
  listeners.forEach((listener) => listener());
  if (wasSignedIn && tokenOf(state) === null) signOutListeners.forEach((listener) => listener());
}

// A sign-out (or sign-in) in another tab reaches this one through the storage event.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) commit(readStored(), false);
  });
}

export const getSession = () => state;
export const getToken = () => tokenOf(state);

export function subscribeSession(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Runs whenever the session goes from signed in to signed out (here, by a 401, or in another tab). */
export function onSignedOut(listener: () => void) {
  signOutListeners.add(listener);
  return () => {
    signOutListeners.delete(listener);
  };
}

export function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The admin's time zone: the one stored at sign-in, else the browser's. */
export const getTimeZone = () => {
  const zone = state.details?.timeZone;
  return typeof zone === 'string' && zone !== '' ? zone : browserTimeZone();
};

export function startSession(admin: AdminProfile, accessToken: string) {
  commit({
    ...state,
    details: { ...admin, token: accessToken, timeZone: browserTimeZone() },
    userDetails: { ...admin },
  });
}

/** Logout: clears details, deviceDetail and userDetails; the sidebar choice stays. */
export function clearSession() {
  commit({ ...state, details: null, deviceDetail: null, userDetails: null });
}

/** After a profile update: new fields are merged into the stored admin (token and zone are kept). */
export function mergeProfile(fields: Partial<AdminProfile> & Record<string, unknown>) {
  commit({
    ...state,
    details: state.details ? { ...state.details, ...fields } : state.details,
    userDetails: { ...(state.userDetails ?? {}), ...fields },
  });
}

export function setSidebarOpen(open: boolean) {
  commit({ ...state, toggle: open });
}

export function setDeviceDetail(deviceDetail: Record<string, unknown> | null) {
  commit({ ...state, deviceDetail });
}

/** Tests only: re-read localStorage as a fresh page load would. */
export function reloadSessionFromStorage() {
  state = readStored();
  listeners.forEach((listener) => listener());
}
