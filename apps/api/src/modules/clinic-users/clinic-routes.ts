import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyResponseSchema } from '@app/contract/auth';
import {
  clinicInvitationBodySchema,
  clinicMeResponseSchema,
  clinicUserIdParamSchema,
  clinicUsersResponseSchema,
  pendingInvitationResponseSchema,
} from '@app/contract/clinic-users';
import { clinicUserMessages, clinicUserPaths } from '@app/contract/clinic-users-texts';
import {
  mfaConfirmBodySchema,
  mfaMessages,
  mfaSetupResponseSchema,
  mfaStatusResponseSchema,
  recoveryCodesResponseSchema,
} from '@app/contract/mfa';
import { sessionInfoResponseSchema, sessionMessages } from '@app/contract/session';
import { sessionExpiresInHeader } from '#api/lib/auth-hook.ts';
import { ok } from '#api/lib/envelope.ts';
import { BadRequestError, NotFoundError } from '#api/lib/errors.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { requireClinicUser } from '#api/lib/request-context.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { MfaService } from '../auth/mfa-service.ts';
import type { SessionActivity } from '../auth/session-activity.ts';
import type { ProfileService } from '../profile/profile-service.ts';
import type { ClinicUsersService } from './clinic-users-service.ts';
import type { InvitationsService } from './invitations-service.ts';

const tags = ['clinic portal'];
const noStore = { 'cache-control': 'no-store' };

/*
 * The clinic portal's API (decision 088), access 'clinic': a signed-in clinic user of any clinic, and
 * every handler works on the user's own customer, read from the session, never from the request. A
 * manager's routes say `clinicManager`; another clinic's user id is not found (404), never refused.
 */
export const clinicRoutes: FastifyPluginAsyncZod<{
  auth: Pick<AuthService, 'logout'>;
  mfa: MfaService;
  activity: SessionActivity;
  profiles: ProfileService;
  invitations: InvitationsService;
  clinicUsers: ClinicUsersService;
  now: () => Date;
}> = async (app, { auth, mfa, activity, profiles, invitations, clinicUsers, now }) => {
  app.get(
    clinicUserPaths.me,
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary: 'The signed-in clinic user, their role and their clinic',
        response: { 200: clinicMeResponseSchema },
      },
    },
    async function getClinicMe(request) {
      const user = requireClinicUser(request);
      const profile = await profiles.findById(user.userId);
      if (!profile) throw new NotFoundError(clinicUserMessages.userNotFound);
      return ok(profile);
    },
  );

  app.get(
    clinicUserPaths.session,
    {
      config: { access: 'clinic', backgroundRead: true },
      schema: {
        tags,
        summary: 'The session: idle timeout and time left; counts as activity',
        response: { 200: sessionInfoResponseSchema },
      },
    },
    async function getClinicSession(request, reply) {
      const user = requireClinicUser(request);
      const endsAt = await activity.keepAlive({ id: user.sessionId, expiresAt: user.expiresAt });
      const expiresInSeconds = Math.max(0, Math.floor((endsAt.getTime() - now().getTime()) / 1000));
      reply.header(sessionExpiresInHeader, String(expiresInSeconds));
      return ok(
        {
          idleTimeoutSeconds: activity.idleSeconds,
          expiresInSeconds,
          expiresAt: user.expiresAt.toISOString(),
        },
        sessionMessages.kept,
      );
    },
  );

  app.post(
    clinicUserPaths.logout,
    {
      config: { access: 'clinic', securityEvent: 'logout' },
      schema: { tags, summary: 'Sign out (revokes this session)', response: { 200: emptyResponseSchema } },
    },
    async function clinicLogout(request) {
      await auth.logout(requireClinicUser(request).sessionId);
      return ok(null, clinicUserMessages.loggedOut);
    },
  );

  app.get(
    clinicUserPaths.mfa,
    {
      config: { access: 'clinic' },
      schema: { tags, summary: 'Whether two-step sign-in is on', response: { 200: mfaStatusResponseSchema } },
    },
    async function getClinicMfa(request) {
      return ok(await mfa.status(requireClinicUser(request).userId));
    },
  );

  app.post(
    clinicUserPaths.mfaSetup,
    {
      config: { access: 'clinic', securityEvent: 'mfa.enrol' },
      schema: {
        tags,
        summary: 'Start enrolment: a new secret as QR code, otpauth URI and manual key',
        response: { 200: mfaSetupResponseSchema },
      },
    },
    async function startClinicMfa(request, reply) {
      reply.headers(noStore);
      return ok(await mfa.startSetup(requireClinicUser(request).userId), mfaMessages.setupStarted);
    },
  );

  app.post(
    clinicUserPaths.mfaConfirm,
    {
      config: { access: 'clinic', securityEvent: 'mfa.enrol' },
      schema: {
        tags,
        summary: 'Confirm enrolment with a code; answers the ten recovery codes (shown once)',
        body: mfaConfirmBodySchema,
        response: { 200: recoveryCodesResponseSchema },
      },
    },
    async function confirmClinicMfa(request, reply) {
      const user = requireClinicUser(request);
      const recoveryCodes = await mfa.confirmSetup(user.userId, request.body.code, request.ip);
      reply.headers(noStore);
      return ok({ recoveryCodes }, mfaMessages.enabled);
    },
  );

  app.get(
    clinicUserPaths.users,
    {
      config: { access: 'clinic', clinicManager: true },
      schema: {
        tags,
        summary: "The manager's own clinic's users and waiting invitations",
        response: { 200: clinicUsersResponseSchema },
      },
    },
    async function listClinicUsers(request) {
      return ok(await clinicUsers.list(requireClinicUser(request).customerId));
    },
  );

  app.post(
    clinicUserPaths.users,
    {
      config: { access: 'clinic', clinicManager: true },
      schema: {
        tags,
        summary: 'Invite a colleague to the clinic (staff by default): mails a link, valid 72 hours and once',
        body: clinicInvitationBodySchema,
        response: { 201: pendingInvitationResponseSchema },
      },
    },
    async function inviteColleague(request, reply) {
      const user = requireClinicUser(request);
      const invitation = await invitations.invite({
        customerId: user.customerId,
        email: request.body.email,
        role: request.body.role,
        invitedBy: { userId: user.userId, email: user.email },
      });
      request.auditRecord = { kind: 'customer', id: user.customerId };
      reply.code(201);
      return ok(invitation, clinicUserMessages.invitationSent);
    },
  );

  app.delete(
    clinicUserPaths.user(':id'),
    {
      config: { access: 'clinic', clinicManager: true },
      schema: {
        tags,
        summary: "Remove a user of the manager's own clinic (404 for anyone else's)",
        params: clinicUserIdParamSchema,
        response: { 200: emptyResponseSchema },
      },
    },
    async function removeClinicUser(request) {
      const user = requireClinicUser(request);
      if (request.params.id === user.userId) throw new BadRequestError(clinicUserMessages.removeSelf);
      await invitations.removeUser(user.customerId, request.params.id, historyActorOf(request));
      request.auditRecord = { kind: 'user', id: request.params.id };
      return ok(null, clinicUserMessages.removed);
    },
  );
};
