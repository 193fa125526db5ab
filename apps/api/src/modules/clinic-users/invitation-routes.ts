import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptInvitationBodySchema,
  acceptInvitationResponseSchema,
  invitationResponseSchema,
  invitationTokenParamSchema,
} from '@app/contract/clinic-users';
import { clinicUserMessages, clinicUserPaths } from '@app/contract/clinic-users-texts';
import { mfaMessages } from '@app/contract/mfa';
import { ok } from '#api/lib/envelope.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { MfaService } from '../auth/mfa-service.ts';
import type { InvitationsService } from './invitations-service.ts';

const tags = ['clinic users'];

/*
 * The invitation's link (decision 088): public, as the mailed token is the only key (256 random
 * bits, kept as its hash). Reading it shows the clinic; accepting it makes the account and then
 * answers as a sign-in does: a session, or the two-step enrolment the clinic requires first.
 */
export const invitationRoutes: FastifyPluginAsyncZod<{
  invitations: InvitationsService;
  auth: Pick<AuthService, 'openSession'>;
  mfa: Pick<MfaService, 'challengeFor'>;
}> = async (app, { invitations, auth, mfa }) => {
  app.get(
    clinicUserPaths.invitation(':token'),
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'An invitation as its link shows it: the clinic, the email and role (404 unknown; 410 used, replaced or expired)',
        params: invitationTokenParamSchema,
        response: { 200: invitationResponseSchema },
      },
    },
    async function readInvitation(request) {
      return ok(await invitations.read(request.params.token));
    },
  );

  app.post(
    clinicUserPaths.invitation(':token'),
    {
      config: { access: 'public', securityEvent: 'invitation.accept' },
      schema: {
        tags,
        summary:
          'Accept an invitation with a name and password (once); answers as sign-in does: a session, or the two-step enrolment the clinic requires',
        params: invitationTokenParamSchema,
        body: acceptInvitationBodySchema,
        response: { 200: acceptInvitationResponseSchema },
      },
    },
    async function acceptInvitation(request) {
      const user = await invitations.accept(request.params.token, request.body);
      request.securitySubject = { userId: user.userId, email: user.email };
      request.auditCustomerId = user.customerId;
      const challenge = await mfa.challengeFor(user.userId);
      if (challenge) return ok(challenge, mfaMessages.enrolStep);
      const session = await auth.openSession({
        userId: user.userId,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return ok(session, clinicUserMessages.accepted);
    },
  );
};
