import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceIdParamSchema } from '@app/contract/devices';
import { groupIdParamSchema } from '@app/contract/groups';
import {
  groupWindowResponseSchema,
  machineWindowResponseSchema,
  maintenanceWindowBodySchema,
  maintenanceWindowMessages,
  maintenanceWindowPaths,
} from '@app/contract/maintenance-windows';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import type { MaintenanceWindows } from './maintenance-windows-service.ts';

const savedOrCleared = (window: unknown) =>
  window ? maintenanceWindowMessages.saved : maintenanceWindowMessages.cleared;

/** A machine's or a group's maintenance window (issue 37 item 4). */
export const maintenanceWindowsRoutes: FastifyPluginAsyncZod<{ windows: MaintenanceWindows }> = async (
  app,
  { windows },
) => {
  app.get(
    maintenanceWindowPaths.machine(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary:
          "The machine's maintenance window, where it comes from, whether it is open now, and whether a treatment runs",
        params: deviceIdParamSchema,
        response: { 200: machineWindowResponseSchema },
      },
    },
    async (request) => ok(await windows.ofMachine(request.params.id)),
  );

  app.put(
    maintenanceWindowPaths.machine(':id'),
    {
      config: { access: 'admin', permission: 'devices.edit' },
      schema: {
        tags: ['devices'],
        summary:
          'Set the machine’s maintenance window (`{ window: { start, end, timeZone } }`), or remove it (`{ window: null }`)',
        params: deviceIdParamSchema,
        body: maintenanceWindowBodySchema,
        response: { 200: machineWindowResponseSchema },
      },
    },
    async (request) =>
      ok(
        await windows.setOnMachine(request.params.id, request.body.window, historyActorOf(request)),
        savedOrCleared(request.body.window),
      ),
  );

  app.put(
    maintenanceWindowPaths.group(':id'),
    {
      config: { access: 'admin', permission: 'groups.manage' },
      schema: {
        tags: ['groups'],
        summary:
          "Set a group's maintenance window on its machines now, or remove it from those that had it from this group",
        params: groupIdParamSchema,
        body: maintenanceWindowBodySchema,
        response: { 200: groupWindowResponseSchema },
      },
    },
    async (request) =>
      ok(
        await windows.setOnGroup(request.params.id, request.body.window, historyActorOf(request)),
        savedOrCleared(request.body.window),
      ),
  );
};
