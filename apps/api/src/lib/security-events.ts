import type { FastifyRequest } from 'fastify';
import './request-context.ts';

/*
 * Security events (docs/decisions/015): sign-in, sign-out, password and MFA steps, and every refused
 * request (401/403). Each lands in the audit trail (the `event` column of access_logs / error_logs,
 * written by lib/audit.ts) and in the server's structured log as one 'security event' line. Never a
 * secret: only the event, the outcome, the user id / email and the client's address.
 *
 * A route opts in with `config: { securityEvent: 'login' }`; the outcome is taken from the status
 * code: 'login.success' or 'login.failure'.
 */

export type SecurityEventName =
  | 'login'
  | 'logout'
  | 'password.forgot'
  | 'password.otp'
  | 'password.reset'
  | 'password.change'
  | 'mfa.verify'
  | 'mfa.enrol'
  | 'mfa.disable'
  | 'mfa.recovery-codes'
  | 'mfa.reset'
  /** The password (and code) confirmed before a dangerous action (lib/step-up.ts). */
  | 'step-up'
  /** An emergency declared to see a patient's data (break-glass, decision 082). */
  | 'break-glass'
  /** An electronic signature given with a change (decision 083): the request is marked by signerOf. */
  | 'signature'
  /** A clinic user's invitation accepted: the account is made and signed in (decision 088). */
  | 'invitation.accept'
  /** A payment link paid (or declined) with the built-in demo provider: no money moved. */
  | 'payment.demo'
  // The machines (modules/device-api): enrolment on both sides, and people signing in on a machine.
  | 'device.enrolment-code'
  | 'device.enrol'
  | 'device.revoke'
  | 'app.login'
  | 'app.logout';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route is a security event; recorded with '.success' or '.failure' appended. */
    securityEvent?: SecurityEventName;
  }
  interface FastifyRequest {
    /**
     * Whom an anonymous security event is about when the body names no email: the code step of
     * sign-in knows the user from its step token. Set by the handler before it can fail.
     */
    securitySubject?: { userId: string; email: string };
    /** This request signs a record (modules/signatures signerOf): its event is `signature.*`. */
    signing?: boolean;
  }
}

export const accessDenied = 'access.denied';
/** A dangerous action answered with the password prompt (lib/step-up.ts): asked, not refused. */
export const stepUpAsked = 'step-up.asked';

/** The event this answer records, if any: the route's own, or access.denied for a 401/403. */
export function securityEventOf(request: FastifyRequest, statusCode: number): string | null {
  if (request.stepUpAsked) return stepUpAsked;
  const name = request.routeOptions.config.securityEvent ?? (request.signing ? 'signature' : undefined);
  if (name) return `${name}.${statusCode < 400 ? 'success' : 'failure'}`;
  return statusCode === 401 || statusCode === 403 ? accessDenied : null;
}

const emailShape = /^[^\s@]{1,64}@[^\s@]{1,189}$/;

/**
 * Who an anonymous event was about: the email the caller gave (sign-in, password recovery), only
 * when it looks like an address, so a password typed into the email field is never kept.
 */
export function claimedEmail(request: FastifyRequest): string | null {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && emailShape.test(email.trim()) ? email.trim().toLowerCase() : null;
}

/** One structured line per security event: a failure or a refusal at warn, the rest at info. */
export function logSecurityEvent(request: FastifyRequest, event: string, statusCode: number) {
  const entry = {
    securityEvent: event,
    statusCode,
    userId: request.auth?.userId ?? request.securitySubject?.userId ?? null,
    email: request.auth?.email ?? request.securitySubject?.email ?? claimedEmail(request),
    route: `${request.method} ${request.routeOptions.url ?? '(no route)'}`,
  };
  if (statusCode >= 400 && event !== stepUpAsked) request.log.warn(entry, 'security event');
  else request.log.info(entry, 'security event');
}
