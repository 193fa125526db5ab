import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountMessages,
  changePasswordBodySchema,
  forgotPasswordBodySchema,
  messageResponseSchema,
  resetPasswordBodySchema,
  verifyOtpBodySchema,
  verifyOtpResponseSchema,
} from '@app/contract/account';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { AccountService } from './account-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests await `app.account.idle()` for OTPs issued after the answer went out. */
    account: AccountService;
  }
}

/** Password recovery (public) and change (signed in). */
export const accountRoutes: FastifyPluginAsyncZod<{ account: AccountService }> = async (app, { account }) => {
  app.post(
    apiPaths.forgotPassword,
    {
      config: { access: 'public', securityEvent: 'password.forgot' },
      schema: {
        tags: ['account'],
        summary:
          'Email a 6-digit OTP (valid 10 minutes); the same answer whether or not the email has an account',
        body: forgotPasswordBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await account.forgotPassword({ email: request.body.email, ip: request.ip });
      return ok(null, accountMessages.otpSent);
    },
  );

  app.post(
    apiPaths.resendOtp,
    {
      config: { access: 'public', securityEvent: 'password.forgot' },
      schema: {
        tags: ['account'],
        summary: 'Email a new OTP that replaces the previous one; at most one per 30 seconds per email',
        body: forgotPasswordBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await account.resendOtp({ email: request.body.email, ip: request.ip });
      return ok(null, accountMessages.otpResent);
    },
  );

  app.post(
    apiPaths.verifyEmail,
    {
      config: { access: 'public', securityEvent: 'password.otp' },
      schema: {
        tags: ['account'],
        summary: 'Trade a right OTP for a short-lived reset token (5 wrong tries void the OTP)',
        body: verifyOtpBodySchema,
        response: { 200: verifyOtpResponseSchema },
      },
    },
    async (request) =>
      ok(await account.verifyOtp({ ...request.body, ip: request.ip }), accountMessages.otpVerified),
  );

  app.post(
    apiPaths.resetPassword,
    {
      config: { access: 'public', securityEvent: 'password.reset' },
      schema: {
        tags: ['account'],
        summary: 'Set a new password with the reset token; signs the user out everywhere',
        body: resetPasswordBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await account.resetPassword(request.body);
      return ok(null, accountMessages.passwordReset);
    },
  );

  app.post(
    apiPaths.changePassword,
    {
      config: { access: 'admin', permission: 'any-admin', securityEvent: 'password.change' },
      schema: {
        tags: ['account'],
        summary: 'Change the signed-in user’s password; other sessions are signed out, this one stays',
        body: changePasswordBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const { userId, sessionId } = requireAuth(request);
      await account.changePassword({
        userId,
        sessionId,
        oldPassword: request.body.old_password,
        newPassword: request.body.new_password,
        actor: historyActorOf(request),
      });
      return ok(null, accountMessages.passwordChanged);
    },
  );
};
