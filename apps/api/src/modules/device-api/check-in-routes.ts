import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { heartbeatBodySchema, heartbeatResponseSchema } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { requireDevice } from '#api/lib/request-context.ts';
import type { DeviceGateService } from './device-gate.ts';

/** The heartbeat: the app's version and position join the coalesced last-seen write (check-ins.ts). */
export const checkInRoutes: FastifyPluginAsyncZod<{
  gate: DeviceGateService;
  now: () => Date;
  heartbeatSeconds: number;
}> = async (app, { gate, now, heartbeatSeconds }) => {
  app.post(
    apiPaths.appHeartbeat,
    {
      config: { access: 'device' },
      schema: {
        tags: ['device'],
        summary: "Check in: the app's version (and position when known)",
        description:
          'Every device call marks the machine as seen; the heartbeat also reports the app version. ' +
          'The answer says when to send the next one. Written within about a second, not at once.',
        body: heartbeatBodySchema.meta({
          examples: [{ versionCode: 42, versionName: '2.3.0', latitude: 52.52, longitude: 13.405 }],
        }),
        response: { 200: heartbeatResponseSchema },
        security: [{ device: [] }],
      },
    },
    async (request) => {
      const { body } = request;
      const at = now();
      gate.checkIns.record(requireDevice(request).deviceId, {
        at,
        versionCode: body.versionCode,
        versionName: body.versionName,
        latitude: body.latitude,
        longitude: body.longitude,
      });
      return ok({ serverTime: at.toISOString(), nextHeartbeatSeconds: heartbeatSeconds });
    },
  );
};
