import type { RoleKind } from '@app/contract/auth';
import type { AppUserKind } from '@app/contract/device-api';
import { permissionMessages, type Permission, type RoutePermission } from '@app/contract/permissions';
import { ForbiddenError } from './errors.ts';

/** A signed-in console user (modules/auth builds it from the access token and the session row). */
export type AuthContext = {
  userId: string;
  sessionId: string;
  email: string;
  /** The role the user holds: nobody changes their own (decision 063). */
  roleId: string;
  /** Read on every request, so a user whose role stops being admin loses access at once. */
  roleType: RoleKind;
  /** A clinic user's customer (issue 39 item 3, decision 088); null for the supplier's own users. */
  customerId: string | null;
  /** The role's permissions, read with the role on every request: a change applies to the next request. */
  permissions: readonly Permission[];
  /** When this session ends with no further request: idle deadline or absolute expiry, whichever is first. */
  endsAt: Date;
  /** The absolute expiry, however active the session. */
  expiresAt: Date;
  /** When the admin last confirmed the password on this session (step-up, lib/step-up.ts); null if never. */
  steppedUpAt: Date | null;
};

/** The enrolled machine behind a device call. */
export type DeviceContext = {
  deviceId: string;
  machineNumber: string;
  serialNumber: string;
  credentialId: string;
};

/** A doctor or technician signed in on that machine. */
export type AppUserContext = {
  sessionId: string;
  kind: AppUserKind;
  /** doctors.id or technicians.id */
  id: string;
  /** The numeric id the console shows and the logs carry. */
  userId: number;
  userName: string;
  email: string;
};

/**
 * Who may call a route: anyone (`public`), a signed-in console user whose role is of type admin
 * (`admin`), an enrolled machine (`device`: `Authorization: Device <credential>`), or a doctor or
 * technician signed in on that machine (`app-user`: the device credential and `X-App-Session`), or a
 * signed-in clinic user (`clinic`: the clinic portal's routes under /api/v1/clinic, decision 088).
 */
export type RouteAccess = 'public' | 'admin' | 'device' | 'app-user' | 'clinic';
export const routeAccessKinds: readonly RouteAccess[] = ['public', 'admin', 'device', 'app-user', 'clinic'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every route must declare it; a test fails on any that does not. */
    access?: RouteAccess;
    /** What an admin route needs of the role (every admin route declares it; route-access.ts). */
    permission?: RoutePermission;
    /** A clinic route only the clinic's manager may call (decision 088). */
    clinicManager?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The enrolled machine calling a device route. */
    device: DeviceContext | null;
    /** The doctor or technician signed in on that machine (app-user routes). */
    appUser: AppUserContext | null;
    timeZone: string;
  }
}

/** The signed-in user of a private route (the auth hook has already refused anyone else). */
export function requireAuth(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new Error('requireAuth used on a public route');
  return request.auth;
}

/** The signed-in admin as a service records who acted: id and email. */
export function actorOf(request: { auth: AuthContext | null }): { userId: string; email: string } {
  const { userId, email } = requireAuth(request);
  return { userId, email };
}

/**
 * Refuses, with a 403 naming it, an admin whose role lacks `needed`: the auth hook for a route's own
 * permission, and a route for one a request asks for beyond it (an unmasked export, decision 058).
 */
export function requirePermission(auth: AuthContext, needed: Permission): void {
  if (!auth.permissions.includes(needed)) throw new ForbiddenError(permissionMessages.missing(needed));
}

/** The signed-in clinic user of a clinic route, with the customer they belong to. */
export function requireClinicUser(request: {
  auth: AuthContext | null;
}): AuthContext & { customerId: string } {
  const auth = requireAuth(request);
  if (auth.roleType !== 'clinic' || !auth.customerId)
    throw new Error('requireClinicUser used on a route that is not a clinic route');
  return auth as AuthContext & { customerId: string };
}

/** The machine calling a device or app-user route. */
export function requireDevice(request: { device: DeviceContext | null }): DeviceContext {
  if (!request.device) throw new Error('requireDevice used on a route that is not a device route');
  return request.device;
}

/** The person signed in on the machine (app-user routes). */
export function requireAppUser(request: { appUser: AppUserContext | null }): AppUserContext {
  if (!request.appUser) throw new Error('requireAppUser used on a route that is not an app-user route');
  return request.appUser;
}
