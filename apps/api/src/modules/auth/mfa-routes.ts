import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginSessionResponseSchema } from '@app/contract/auth';
import {
  mfaChallengeBodySchema,
  mfaChallengeConfirmBodySchema,
  mfaCodeBodySchema,
  mfaConfirmBodySchema,
  mfaDisableBodySchema,
  mfaEnrolledLoginResponseSchema,
  mfaMessages,
  mfaSetupResponseSchema,
  mfaStatusResponseSchema,
  mfaVerifyBodySchema,
  recoveryCodesResponseSchema,
  userMfaStatusResponseSchema,
} from '@app/contract/mfa';
import { userIdParamSchema } from '@app/contract/users';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { AuthService } from './auth-service.ts';
import type { MfaService } from './mfa-service.ts';

const tags = ['two-step sign-in'];
// Secrets and recovery codes are shown once; no cache anywhere may keep them.
const noStore = { 'cache-control': 'no-store' };

export const mfaRoutes: FastifyPluginAsyncZod<{ auth: AuthService; mfa: MfaService }> = async (
  app,
  { auth, mfa },
) => {
  // Sign-in: these take the step token from the login answer, never a session.
  app.post(
    apiPaths.loginMfa,
    {
      config: { access: 'public', securityEvent: 'mfa.verify' },
      schema: {
        tags,
        summary: 'Sign-in code step: the TOTP code or a recovery code; answers as login does',
        body: mfaVerifyBodySchema,
        response: { 200: loginSessionResponseSchema },
      },
    },
    async (request) => {
      request.securitySubject = await mfa.subjectOf(request.body.mfaToken);
      const userId = await mfa.passChallenge(request.body.mfaToken, request.body.code, request.ip);
      const session = await auth.openSession({
        userId,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      // A clinic user's sign-in is their clinic's, in the audit trail (decision 088).
      request.auditCustomerId = session.admin.clinic?._id;
      return ok(session, 'Login successful');
    },
  );

  app.post(
    apiPaths.loginMfaSetup,
    {
      config: { access: 'public', securityEvent: 'mfa.enrol' },
      schema: {
        tags,
        summary: 'REQUIRE_MFA: start enrolment before the first session',
        body: mfaChallengeBodySchema,
        response: { 200: mfaSetupResponseSchema },
      },
    },
    async (request, reply) => {
      request.securitySubject = await mfa.subjectOf(request.body.mfaToken);
      const userId = await mfa.enrollingUser(request.body.mfaToken);
      reply.headers(noStore);
      return ok(await mfa.startSetup(userId), mfaMessages.setupStarted);
    },
  );

  app.post(
    apiPaths.loginMfaConfirm,
    {
      config: { access: 'public', securityEvent: 'mfa.enrol' },
      schema: {
        tags,
        summary: 'REQUIRE_MFA: confirm with a code; answers a session and the recovery codes (shown once)',
        body: mfaChallengeConfirmBodySchema,
        response: { 200: mfaEnrolledLoginResponseSchema },
      },
    },
    async (request, reply) => {
      request.securitySubject = await mfa.subjectOf(request.body.mfaToken);
      const { userId, recoveryCodes } = await mfa.confirmEnrolment(
        request.body.mfaToken,
        request.body.code,
        request.ip,
      );
      const session = await auth.openSession({
        userId,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      request.auditCustomerId = session.admin.clinic?._id;
      reply.headers(noStore);
      return ok({ ...session, recoveryCodes }, mfaMessages.enabled);
    },
  );

  // The signed-in user's own authenticator (profile).
  app.get(
    apiPaths.profileMfa,
    {
      config: { access: 'admin', permission: 'any-admin' },
      schema: { tags, summary: 'Whether two-step sign-in is on', response: { 200: mfaStatusResponseSchema } },
    },
    async (request) => ok(await mfa.status(requireAuth(request).userId)),
  );

  app.post(
    apiPaths.profileMfaSetup,
    {
      config: { access: 'admin', permission: 'any-admin', securityEvent: 'mfa.enrol' },
      schema: {
        tags,
        summary: 'Start enrolment: a new secret as QR code, otpauth URI and manual key',
        response: { 200: mfaSetupResponseSchema },
      },
    },
    async (request, reply) => {
      reply.headers(noStore);
      return ok(await mfa.startSetup(requireAuth(request).userId), mfaMessages.setupStarted);
    },
  );

  app.post(
    apiPaths.profileMfaConfirm,
    {
      config: { access: 'admin', permission: 'any-admin', securityEvent: 'mfa.enrol' },
      schema: {
        tags,
        summary: 'Confirm enrolment with a code; answers the ten recovery codes (shown once)',
        body: mfaConfirmBodySchema,
        response: { 200: recoveryCodesResponseSchema },
      },
    },
    async (request, reply) => {
      const recoveryCodes = await mfa.confirmSetup(
        requireAuth(request).userId,
        request.body.code,
        request.ip,
      );
      reply.headers(noStore);
      return ok({ recoveryCodes }, mfaMessages.enabled);
    },
  );

  app.post(
    apiPaths.profileMfaDisable,
    {
      config: { access: 'admin', permission: 'any-admin', securityEvent: 'mfa.disable' },
      schema: {
        tags,
        summary: 'Turn two-step sign-in off (password and a current code)',
        body: mfaDisableBodySchema,
        response: { 200: mfaStatusResponseSchema },
      },
    },
    async (request) => {
      const { userId } = requireAuth(request);
      await mfa.disable(userId, request.body, request.ip);
      return ok(await mfa.status(userId), mfaMessages.disabled);
    },
  );

  app.post(
    apiPaths.profileMfaRecoveryCodes,
    {
      config: { access: 'admin', permission: 'any-admin', securityEvent: 'mfa.recovery-codes' },
      schema: {
        tags,
        summary: 'Replace the recovery codes (needs a current code)',
        body: mfaCodeBodySchema,
        response: { 200: recoveryCodesResponseSchema },
      },
    },
    async (request, reply) => {
      const recoveryCodes = await mfa.renewRecoveryCodes(
        requireAuth(request).userId,
        request.body.code,
        request.ip,
      );
      reply.headers(noStore);
      return ok({ recoveryCodes }, mfaMessages.recoveryCodesRenewed);
    },
  );

  // Another user's authenticator, for the admin who helps them (lost phone and recovery codes).
  app.get(
    apiPaths.userMfa(':id'),
    {
      config: { access: 'admin', permission: 'security.manage' },
      schema: {
        tags,
        summary: "A user's two-step sign-in: on or off, since when, recovery codes left",
        params: userIdParamSchema,
        response: { 200: userMfaStatusResponseSchema },
      },
    },
    async (request) => ok(await mfa.statusOf(request.params.id, requireAuth(request).userId)),
  );

  app.post(
    apiPaths.userMfaReset(':id'),
    {
      config: {
        access: 'admin',
        permission: 'security.manage',
        securityEvent: 'mfa.reset',
        authorize: (request) =>
          mfa.assertMayReset(requireAuth(request), (request.params as { id: string }).id),
        stepUp: true,
      },
      schema: {
        tags,
        summary:
          "Reset a user's two-step sign-in (removes the authenticator and recovery codes, ends their sessions); needs a step-up: your own password, and your code when yours is on, confirmed within 5 minutes",
        params: userIdParamSchema,
        response: { 200: userMfaStatusResponseSchema },
      },
    },
    async (request) => {
      request.auditRecord = { kind: 'user', id: request.params.id };
      return ok(await mfa.resetFor(requireAuth(request).userId, request.params.id), mfaMessages.resetDone);
    },
  );
};
