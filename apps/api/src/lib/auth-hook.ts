import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { apiMessages } from '@app/contract/envelope';
import { deviceApiMessages } from '@app/contract/device-api';
import { limiterAddress } from './anonymous-rate-limit.ts';
import { BadRequestError, ForbiddenError, TooManyRequestsError, UnauthorizedError } from './errors.ts';
import { routeConfigOf } from './route-config.ts';
import { isIanaTimeZone } from '@app/contract/time-zones';
import { clinicUserMessages } from '@app/contract/clinic-users-texts';
import { clinicRoleIds } from '../db/schema/users.ts';
import {
  requirePermission,
  type AppUserContext,
  type AuthContext,
  type DeviceContext,
} from './request-context.ts';

const bearer = /^Bearer ([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+)$/;

/**
 * Deny by default: every API route needs a live session of an admin unless its config says
 * `access: 'public'` (app.ts refuses to register a route that declares nothing). The role is read
 * on every request, so demoting a user takes effect at once; so are its permissions, checked
 * against the one the admin route declares. The X-Timezone header, when sent, must be an IANA zone.
 */
/** On every authenticated answer: how long the session lives if no other request comes. */
export const sessionExpiresInHeader = 'x-session-expires-in';
const secondsUntil = (end: Date, now: Date) =>
  String(Math.max(0, Math.floor((end.getTime() - now.getTime()) / 1000)));

// What the hook needs of modules/auth and modules/device-api, stated here so lib/ never imports a module.
type SessionAuth = { authenticate(token: string): Promise<AuthContext> };
type DeviceAuth = {
  /** Counts a credential that is not known good against `address`, and may refuse it with a 429. */
  authenticateDevice(credential: string, address?: string): Promise<DeviceContext>;
  authenticateSession(token: string, device: DeviceContext): Promise<AppUserContext>;
};

export type DeviceGate = {
  auth: DeviceAuth;
  /** Runs on every authenticated device call: per-machine rate limit (may throw a 429), last-seen check-in. */
  onDeviceCall?: (device: DeviceContext) => void | Promise<void>;
};

const deviceScheme = /^Device (\S+)$/;

export const authHook = fp(
  async (app: FastifyInstance, opts: { auth: SessionAuth; devices: DeviceGate; now: () => Date }) => {
    app.decorateRequest('auth', null);
    app.decorateRequest('device', null);
    app.decorateRequest('appUser', null);
    app.decorateRequest('timeZone', 'UTC');
    app.addHook('onRequest', async (request, reply) => {
      const zone = request.headers['x-timezone'];
      if (typeof zone === 'string' && zone !== '') {
        if (!isIanaTimeZone(zone)) throw new BadRequestError(apiMessages.invalidTimezone);
        request.timeZone = zone;
      }
      // Decided by the matched route, not the raw URL: unknown API paths (no route, or the static
      // files' catch-all) fall through to the JSON 404 rather than a 401.
      const config = routeConfigOf(request);
      const route = config.url;
      if (!route || !route.startsWith('/api/') || config.access === 'public') return;
      const header = request.headers.authorization;
      // The machines' routes take only a device credential (never a console token), and the
      // console's only a console token (a device credential never matches the Bearer form).
      if (config.access === 'device' || config.access === 'app-user') {
        const credential = header ? deviceScheme.exec(header)?.[1] : undefined;
        if (!credential) throw new UnauthorizedError(deviceApiMessages.credentialMissing);
        try {
          request.device = await opts.devices.auth.authenticateDevice(credential, limiterAddress(request));
        } catch (error) {
          // Refused for the address's earlier refusals, before any check: not an attempt (no
          // security event), logged as a plain anonymous failure, aggregated (decision 029).
          if (error instanceof TooManyRequestsError) request.anonymousRateLimited = true;
          throw error;
        }
        // A promise only when the limit counts in Redis: in memory no tick is spent waiting.
        const counted = opts.devices.onDeviceCall?.(request.device);
        if (counted) await counted;
        if (config.access === 'app-user') {
          const session = request.headers['x-app-session'];
          if (typeof session !== 'string' || session === '')
            throw new UnauthorizedError(deviceApiMessages.sessionMissing);
          request.appUser = await opts.devices.auth.authenticateSession(session, request.device);
        }
        return;
      }
      if (!header) throw new UnauthorizedError(apiMessages.unauthorized);
      const match = bearer.exec(header);
      if (!match) throw new UnauthorizedError(apiMessages.invalidToken);
      request.auth = await opts.auth.authenticate(match[1]!);
      // Seconds, not a time: the browser's clock may differ from ours. The console warns a minute before.
      reply.header(sessionExpiresInHeader, secondsUntil(request.auth.endsAt, opts.now()));
      // A clinic route takes only a clinic user, of any clinic: each handler reads the user's own
      // customer from the session, never from the request (decision 088).
      if (config.access === 'clinic') {
        if (request.auth.roleType !== 'clinic' || !request.auth.customerId)
          throw new ForbiddenError(apiMessages.forbidden);
        if (config.clinicManager && request.auth.roleId !== clinicRoleIds.manager)
          throw new ForbiddenError(clinicUserMessages.managersOnly);
        return;
      }
      // Every admin route, whatever its permission: a clinic user (or an app role) gets 403 here.
      if (request.auth.roleType !== 'admin') throw new ForbiddenError(apiMessages.forbidden);
      // The route's permission against the role's, both read on this request. An admin route
      // always declares one (route-registry.ts); were one ever missing, nobody gets in.
      const needed = config.permission;
      if (needed === 'any-admin') return;
      if (!needed) throw new ForbiddenError(apiMessages.forbidden);
      requirePermission(request.auth, needed);
    });
  },
);
