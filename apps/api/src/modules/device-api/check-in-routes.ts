import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { heartbeatBodySchema, heartbeatResponseSchema } from '@app/contract/device-api';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { requireDevice } from '#api/lib/request-context.ts';
import type { CommandInbox } from '../commands/command-inbox.ts';
import type { DeviceGateService } from './device-gate.ts';
import type { LicenceVersions } from './licence-versions.ts';
import type { SettingsVersions } from './settings-versions.ts';

/**
 * The heartbeat: the app's version and position join the coalesced last-seen write (check-ins.ts);
 * the answer names the machine's licence version (from memory, licence-versions.ts), so a changed
 * licence reaches the machine within one heartbeat, and hands over the commands waiting for it (read
 * only for a machine that has some: modules/commands/command-inbox.ts).
 */
export const checkInRoutes: FastifyPluginAsyncZod<{
  gate: DeviceGateService;
  licenceVersions: LicenceVersions;
  commandInbox: CommandInbox;
  now: () => Date;
  /** The machine's settings version and heartbeat interval (its setting, or DEVICE_HEARTBEAT_SECONDS). */
  settingsVersions: SettingsVersions;
}> = async (app, { gate, licenceVersions, commandInbox, settingsVersions, now }) => {
  app.post(
    apiPaths.appHeartbeat,
    {
      config: { access: 'device' },
      schema: {
        tags: ['device'],
        summary: "Check in: the app's version (and position when known)",
        description:
          'Every device call marks the machine as seen; the heartbeat also reports the app version. ' +
          'The answer says when to send the next one, and the licence version: when it is higher than ' +
          "the held licence's `ver`, fetch the licence again. Written within about a second, not at once.",
        body: heartbeatBodySchema.meta({
          examples: [
            {
              versionCode: 42,
              versionName: '2.3.0',
              appName: 'com.treatment.device',
              latitude: 52.52,
              longitude: 13.405,
            },
          ],
        }),
        response: { 200: heartbeatResponseSchema },
        security: [{ device: [] }],
      },
    },
    async (request) => {
      const { body } = request;
      const at = now();
      const { deviceId } = requireDevice(request);
      gate.checkIns.record(deviceId, {
        at,
        versionCode: body.versionCode,
        versionName: body.versionName,
        appPackage: body.appName,
        latitude: body.latitude,
        longitude: body.longitude,
        busy: body.busy ?? false,
      });
      // Only a machine memory says may have commands waiting costs a read (command-inbox.ts).
      const pending = commandInbox.forHeartbeat(deviceId, body.busy ?? false);
      const settings = settingsVersions.peek(deviceId) ?? (await settingsVersions.get(deviceId));
      return ok({
        serverTime: at.toISOString(),
        nextHeartbeatSeconds: settings.heartbeatSeconds,
        settingsVersion: settings.version,
        licenceVersion: licenceVersions.peek(deviceId) ?? (await licenceVersions.get(deviceId)),
        commands: pending ? await pending : [],
      });
    },
  );
};
