import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  alarmCountResponseSchema,
  alarmDigestBodySchema,
  alarmDigestResponseSchema,
  alarmIdParamSchema,
  alarmListQuerySchema,
  alarmListResponseSchema,
  alarmMessages,
  alarmResponseSchema,
} from '@app/contract/alarms';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { AlarmDigestService } from './alarm-digest.ts';
import type { AlarmsService } from './alarms-service.ts';

/*
 * Device health alarms (decision 049). Seeing them is part of seeing the machines (devices.view);
 * acknowledging and resolving one changes a machine's record of care (devices.edit). Both writes
 * land in the Admin Logs with the machine's number, like any change to a device.
 */
export const alarmsRoutes: FastifyPluginAsyncZod<{
  alarms: AlarmsService;
  digest: AlarmDigestService;
}> = async (app, { alarms, digest }) => {
  /** Names the machine in the write's audit row (and so in its What Happened words), even when it fails. */
  const auditMachineOf = async (request: FastifyRequest, id: string) => {
    const { deviceId, machineNumber } = await alarms.machineOf(id);
    request.auditMachineNumber = machineNumber;
    request.auditRecord = { kind: 'device', id: deviceId };
  };

  app.get(
    apiPaths.alarms,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['alarms'],
        summary: 'Open or past alarms, newest first; one rule or all; search by machine',
        querystring: alarmListQuerySchema,
        response: { 200: alarmListResponseSchema },
      },
    },
    async function listAlarms(request) {
      return ok(await alarms.list(request.query));
    },
  );

  app.get(
    apiPaths.alarmsCount,
    {
      config: { access: 'admin', permission: 'devices.view', backgroundRead: true },
      schema: {
        tags: ['alarms'],
        summary: "How many alarms are open (the top bar's bell; one row, never a count of the table)",
        response: { 200: alarmCountResponseSchema },
      },
    },
    async function countOpenAlarms() {
      return ok(await alarms.openCount());
    },
  );

  app.post(
    apiPaths.alarmAcknowledge(':id'),
    {
      config: { access: 'admin', permission: 'devices.edit' },
      schema: {
        tags: ['alarms'],
        summary:
          'Acknowledge an open alarm (it stays open until it clears or is resolved); 409 if already done',
        params: alarmIdParamSchema,
        response: { 200: alarmResponseSchema },
      },
    },
    async function acknowledgeAlarm(request) {
      await auditMachineOf(request, request.params.id);
      const alarm = await alarms.acknowledge(request.params.id, requireAuth(request).email);
      return ok(alarm, alarmMessages.acknowledged);
    },
  );

  app.post(
    apiPaths.alarmResolve(':id'),
    {
      config: { access: 'admin', permission: 'devices.edit' },
      schema: {
        tags: ['alarms'],
        summary: 'Resolve an open alarm; if its condition still holds, the next check opens a new one',
        params: alarmIdParamSchema,
        response: { 200: alarmResponseSchema },
      },
    },
    async function resolveAlarm(request) {
      await auditMachineOf(request, request.params.id);
      const alarm = await alarms.resolve(request.params.id, requireAuth(request).email);
      return ok(alarm, alarmMessages.resolved);
    },
  );

  app.get(
    apiPaths.profileAlarmDigest,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['alarms'],
        summary: 'Whether the signed-in admin gets the daily digest of open alarms',
        response: { 200: alarmDigestResponseSchema },
      },
    },
    async function getAlarmDigest(request) {
      return ok({ enabled: await digest.enabled(requireAuth(request).userId) });
    },
  );

  app.put(
    apiPaths.profileAlarmDigest,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['alarms'],
        summary: 'Turn the daily digest of open alarms on or off for the signed-in admin',
        body: alarmDigestBodySchema,
        response: { 200: alarmDigestResponseSchema },
      },
    },
    async function setAlarmDigest(request) {
      const enabled = await digest.setEnabled(requireAuth(request).userId, request.body.enabled);
      return ok({ enabled }, enabled ? alarmMessages.digestOn : alarmMessages.digestOff);
    },
  );
};
