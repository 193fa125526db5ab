import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminInvitationBodySchema,
  clinicUsersResponseSchema,
  customerIdParamSchema,
  pendingInvitationResponseSchema,
} from '@app/contract/clinic-users';
import { clinicUserMessages, clinicUserPaths } from '@app/contract/clinic-users-texts';
import { ok } from '#api/lib/envelope.ts';
import { actorOf } from '#api/lib/request-context.ts';
import type { ClinicUsersService } from './clinic-users-service.ts';
import type { InvitationsService } from './invitations-service.ts';

const tags = ['clinic users'];

/**
 * The supplier's side of clinic users (decision 088): an admin invites a clinic's first manager
 * (or anyone of its people) and sees who the clinic's users are, on the customer's detail page.
 */
export const adminClinicUsersRoutes: FastifyPluginAsyncZod<{
  invitations: InvitationsService;
  clinicUsers: ClinicUsersService;
}> = async (app, { invitations, clinicUsers }) => {
  app.post(
    clinicUserPaths.adminInvitations(':id'),
    {
      config: { access: 'admin', permission: 'customers.manage' },
      schema: {
        tags,
        summary:
          "Invite a clinic user (the clinic's manager by default): mails a link, valid 72 hours and once, to set a password",
        params: customerIdParamSchema,
        body: adminInvitationBodySchema,
        response: { 201: pendingInvitationResponseSchema },
      },
    },
    async function inviteClinicUser(request, reply) {
      request.auditCustomerId = request.params.id;
      const invitation = await invitations.invite({
        customerId: request.params.id,
        email: request.body.email,
        role: request.body.role,
        invitedBy: actorOf(request),
      });
      reply.code(201);
      return ok(invitation, clinicUserMessages.invitationSent);
    },
  );

  app.get(
    clinicUserPaths.adminUsers(':id'),
    {
      config: { access: 'admin', permission: 'customers.view' },
      schema: {
        tags,
        summary: "A customer's clinic users and the invitations still waiting",
        params: customerIdParamSchema,
        response: { 200: clinicUsersResponseSchema },
      },
    },
    async function getCustomerUsers(request) {
      request.auditCustomerId = request.params.id;
      await invitations.customerOf(request.params.id);
      return ok(await clinicUsers.list(request.params.id));
    },
  );
};
