import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appSessionRoutes } from './app-session-routes.ts';
import { createAppSessionsService } from './app-sessions-service.ts';
import { checkInRoutes } from './check-in-routes.ts';
import type { DeviceApiDeps } from './device-api-module.ts';
import { enrolmentRoutes } from './enrolment-routes.ts';
import { createEnrolmentService } from './enrolment-service.ts';
import { technicianMachinesRoutes } from './technician-machines-routes.ts';
import { createTechnicianMachinesService } from './technician-machines-service.ts';

/**
 * The machines' identities (docs/decisions/022): enrolment (console and machine), people signing
 * in on a machine, check-ins, and which machines a technician may sign in on.
 */
export const identityRoutes: FastifyPluginAsyncZod<DeviceApiDeps> = async (app, deps) => {
  const {
    db,
    config,
    now,
    gate,
    throttleStore,
    deviceAuth,
    licenceVersions,
    commandInbox,
    settingsVersions,
  } = deps;
  await app.register(enrolmentRoutes, {
    enrolment: createEnrolmentService({
      db,
      secret: config.jwtSecret,
      now,
      throttleStore,
      onCredentialChange: deviceAuth.forgetDevice,
    }),
  });
  await app.register(appSessionRoutes, { sessions: createAppSessionsService({ db, now, throttleStore }) });
  await app.register(checkInRoutes, {
    gate,
    licenceVersions,
    commandInbox,
    settingsVersions,
    now,
  });
  await app.register(technicianMachinesRoutes, {
    machines: createTechnicianMachinesService({ db, now }),
  });
};
