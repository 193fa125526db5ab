import { afterEach, beforeEach } from 'vitest';
import { permissionNames } from '@app/contract/permissions';
import { clearSession, startSession } from '../lib/session-store.ts';
import { buildAdminProfile } from './fixtures.ts';

/** Signs in as an admin whose role carries `permissions` (every one by default), as the sign-in answer would. */
export function signInWith(permissions: readonly string[] = permissionNames) {
  startSession(buildAdminProfile([...permissions]), 'a.b.c');
}

/** Every test of the file starts signed in with `permissions` (every one by default) and ends signed out. */
export function signedInForEachTest(permissions?: readonly string[]) {
  beforeEach(() => signInWith(permissions));
  afterEach(() => clearSession());
}
