import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceIdParamSchema } from '@app/contract/devices';
import { groupIdParamSchema } from '@app/contract/groups';
import {
  appSettingsAppliedBodySchema,
  appSettingsAppliedResponseSchema,
  appSettingsResponseSchema,
  fleetSettingsResponseSchema,
  levelSettingsResponseSchema,
  machineSettingsViewResponseSchema,
  settingsChangeBodySchema,
  settingsMessages,
  settingsPaths,
} from '@app/contract/machine-settings';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { requireDevice } from '#api/lib/request-context.ts';
import type { MachineSettingsService } from './settings-service.ts';

const changeSummary = 'A value sets a key at this level; null removes it (the level above applies again)';

/** Settings of the machines' app at three levels, and the machine's side (issue 37 item 3). */
export const settingsRoutes: FastifyPluginAsyncZod<{ settings: MachineSettingsService }> = async (
  app,
  { settings },
) => {
  app.get(
    settingsPaths.fleet,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary: "The fleet's default settings of the machines' app, and the catalogue's defaults under them",
        response: { 200: fleetSettingsResponseSchema },
      },
    },
    async () => ok({ values: await settings.fleetValues(), defaults: settings.defaults }),
  );

  app.patch(
    settingsPaths.fleet,
    {
      config: { access: 'admin', permission: 'groups.manage' },
      schema: {
        tags: ['devices'],
        summary: "Change the fleet's default settings",
        description: changeSummary,
        body: settingsChangeBodySchema,
        response: { 200: levelSettingsResponseSchema },
      },
    },
    async (request) =>
      ok(await settings.changeFleet(request.body, historyActorOf(request)), settingsMessages.saved),
  );

  app.get(
    settingsPaths.machine(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary: "The machine's effective settings, where each comes from, and drift (desired ≠ applied)",
        params: deviceIdParamSchema,
        response: { 200: machineSettingsViewResponseSchema },
      },
    },
    async (request) => ok(await settings.ofMachine(request.params.id)),
  );

  app.patch(
    settingsPaths.machine(':id'),
    {
      config: { access: 'admin', permission: 'devices.edit' },
      schema: {
        tags: ['devices'],
        summary: "Change the machine's own settings (overrides)",
        description: changeSummary,
        params: deviceIdParamSchema,
        body: settingsChangeBodySchema,
        response: { 200: machineSettingsViewResponseSchema },
      },
    },
    async (request) =>
      ok(
        await settings.changeMachine(request.params.id, request.body, historyActorOf(request)),
        settingsMessages.saved,
      ),
  );

  app.patch(
    settingsPaths.group(':id'),
    {
      config: { access: 'admin', permission: 'groups.manage' },
      schema: {
        tags: ['groups'],
        summary: "Change a group's settings, written on its machines now",
        description: `${changeSummary}. A machine added to a static group later takes them then; one that starts matching a dynamic group's filter takes them within a minute, and one that stops matching loses them.`,
        params: groupIdParamSchema,
        body: settingsChangeBodySchema,
        response: { 200: levelSettingsResponseSchema },
      },
    },
    async (request) =>
      ok(
        await settings.changeGroup(request.params.id, request.body, historyActorOf(request)),
        settingsMessages.saved,
      ),
  );

  app.get(
    settingsPaths.app,
    {
      config: { access: 'device' },
      schema: {
        tags: ['device'],
        summary: "The machine's effective settings and their version",
        description:
          'Fetch when the heartbeat answers a `settingsVersion` above the one applied; apply, then report ' +
          'the version with POST /api/v1/app/settings/applied.',
        response: { 200: appSettingsResponseSchema },
        security: [{ device: [] }],
      },
    },
    async (request) => ok(await settings.forApp(requireDevice(request).deviceId)),
  );

  app.post(
    settingsPaths.appApplied,
    {
      config: { access: 'device' },
      schema: {
        tags: ['device'],
        summary: 'Report the settings version the app applied',
        body: appSettingsAppliedBodySchema,
        response: { 200: appSettingsAppliedResponseSchema },
        security: [{ device: [] }],
      },
    },
    async (request) => ok(await settings.applied(requireDevice(request).deviceId, request.body.version)),
  );
};
