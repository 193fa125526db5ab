import { useSyncExternalStore } from 'react';
import type { Permission } from '@app/contract/permissions';
import { getSessionDeadline, subscribeSessionDeadline } from './session-expiry.ts';
import {
  getSession,
  initialSessionState,
  subscribeSession,
  tokenOf,
  type SessionState,
} from './session-store.ts';

/*
 * The React side of the session stores, in a module of its own: the API client needs the stores,
 * and /success and /cancel use the API client without React (docs/decisions/028); with the hooks in
 * the stores' modules those pages fetched React for nothing.
 */

/** Select a stable part of the session (a field or a primitive), re-rendering only when it changes. */
export function useSession<T>(select: (s: SessionState) => T): T {
  return useSyncExternalStore(
    subscribeSession,
    () => select(getSession()),
    () => select(initialSessionState),
  );
}

export const useToken = () => useSession(tokenOf);

/** When the server will end this session (lib/session-expiry.ts), re-rendering when it moves. */
export function useSessionDeadline() {
  return useSyncExternalStore(subscribeSessionDeadline, getSessionDeadline, () => null);
}

/**
 * Whether the signed-in admin's role carries this permission (from the profile at sign-in): what the
 * console offers follows it, and the API checks it on every request anyway.
 */
export const useCan = (permission: Permission) =>
  useSession((s) => s.details?.role?.permissions?.includes(permission) === true);

const none: readonly string[] = [];

/** Every permission the signed-in admin's role carries (none when the profile names none). */
export const useHeldPermissions = (): readonly string[] =>
  useSession((s) => s.details?.role?.permissions ?? none);
