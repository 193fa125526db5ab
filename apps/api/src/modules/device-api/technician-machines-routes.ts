import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceApiMessages } from '@app/contract/device-api';
import { assignedMachinesResponseSchema, assignMachinesBodySchema } from '@app/contract/device-enrolment';
import { apiPaths } from '@app/contract/paths';
import { userIdParamSchema } from '@app/contract/users';
import { ok } from '#api/lib/envelope.ts';
import type { TechnicianMachinesService } from './technician-machines-service.ts';

/** User Management: the machines a technician (a user of an app role) may sign in on. */
export const technicianMachinesRoutes: FastifyPluginAsyncZod<{
  machines: TechnicianMachinesService;
}> = async (app, { machines }) => {
  app.get(
    apiPaths.userMachines(':id'),
    {
      config: { access: 'admin', permission: 'users.manage' },
      schema: {
        tags: ['users'],
        summary: 'The machines this user (a technician) is assigned to',
        params: userIdParamSchema,
        response: { 200: assignedMachinesResponseSchema },
      },
    },
    async (request) => ok({ machines: await machines.get(request.params.id) }),
  );

  app.put(
    apiPaths.userMachines(':id'),
    {
      config: { access: 'admin', permission: 'users.manage' },
      schema: {
        tags: ['users'],
        summary: "Replace the user's machines (only users whose role is of type app)",
        description:
          "Machines left out are unassigned, and the technician's app sessions on them end. Unknown device ids are refused by name.",
        params: userIdParamSchema,
        body: assignMachinesBodySchema,
        response: { 200: assignedMachinesResponseSchema },
      },
    },
    async (request) =>
      ok(
        { machines: await machines.replace(request.params.id, request.body.deviceIds) },
        deviceApiMessages.assignedMachines,
      ),
  );
};
