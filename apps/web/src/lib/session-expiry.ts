import { onSignedOut } from './session-store.ts';

/**
 * When the server will end this session if nothing else happens (epoch ms, this browser's clock).
 * Every authenticated answer says how many seconds are left (X-Session-Expires-In); the number is
 * shared with the other tabs through localStorage, so activity in one tab keeps them all from
 * warning, and "Stay signed in" in one closes the warning in all. Not under the `auth` key: that
 * one holds exactly what the spec lists.
 */
export const SESSION_DEADLINE_KEY = 'auth-session-ends';
export const SESSION_EXPIRES_HEADER = 'x-session-expires-in';

const read = (): number | null => {
  try {
    const value = Number(globalThis.localStorage?.getItem(SESSION_DEADLINE_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
};

let deadline: number | null = read();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

function set(next: number | null) {
  deadline = next;
  try {
    if (next === null) globalThis.localStorage?.removeItem(SESSION_DEADLINE_KEY);
    else globalThis.localStorage?.setItem(SESSION_DEADLINE_KEY, String(next));
  } catch {
    // Storage disabled: this tab still keeps its own deadline.
  }
  emit();
}

/** The header's value from an authenticated answer; anything but a number of seconds is ignored. */
export function noteSessionExpiresIn(header: string | null | undefined) {
  if (header === null || header === undefined || !/^\d+$/.test(header)) return;
  set(Date.now() + Number(header) * 1000);
}

export const getSessionDeadline = () => deadline;

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_DEADLINE_KEY || event.key === null) {
      deadline = read();
      emit();
    }
  });
}
onSignedOut(() => set(null));

export function subscribeSessionDeadline(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
