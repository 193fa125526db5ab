import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { defineModule } from '#api/app-module.ts';
import { ok } from '#api/lib/envelope.ts';
import type { MovableClock } from '#api/lib/movable-clock.ts';

/** Where an e2e test reads and moves the server's clock (CLOCK_CONTROL=1 only). */
export const clockControlPath = '/api/v1/admin/clock';

const clockSchema = z.object({ now: z.string() });
const clockResponseSchema = z.object({ code: z.number(), msg: z.string(), data: clockSchema });
const advanceBodySchema = z.strictObject({
  days: z
    .number({ error: 'days must be a number' })
    .positive('days must be above 0')
    .max(3_650, 'days must be at most 3650'),
});

const clockRoutes: FastifyPluginAsyncZod<{ clock: MovableClock; runJobs: () => Promise<void> }> = async (
  app,
  { clock, runJobs },
) => {
  app.get(
    clockControlPath,
    {
      config: { access: 'admin', permission: 'any-admin' },
      schema: {
        tags: ['clock'],
        summary: "The server's clock (CLOCK_CONTROL=1 only)",
        response: { 200: clockResponseSchema },
      },
    },
    async () => ok({ now: clock.now().toISOString() }),
  );
  app.post(
    clockControlPath,
    {
      config: { access: 'admin', permission: 'any-admin' },
      schema: {
        tags: ['clock'],
        summary: "Moves the server's clock forward, then runs every periodic job once (CLOCK_CONTROL=1 only)",
        body: advanceBodySchema,
        response: { 200: clockResponseSchema },
      },
    },
    async (request) => {
      clock.advance(request.body.days * 86_400_000);
      // What the timers would have done by then (licence sweeps, reminders, alarms), done now, so
      // the test sees the world of the new time without waiting for a period.
      await runJobs();
      return ok({ now: clock.now().toISOString() });
    },
  );
};

/**
 * A test facility, not a feature: with CLOCK_CONTROL=1 the server runs on a movable clock and an
 * admin can move it forward (the e2e tests of licences: a paid-through date passing). Without it,
 * neither the route nor the movable clock exists.
 */
export const clockControlModule = defineModule({
  name: 'clock-control',
  register: async (app, { clock, log }) => {
    if (!clock) return;
    log.warn('CLOCK_CONTROL=1: the server clock can be moved forward by any admin; for tests only');
    await app.register(clockRoutes, { clock, runJobs: () => app.runJobsNow() });
  },
});
