import { otpResendSeconds } from '@app/contract/account';
import { createAttemptLimiter, createBackoffLimiter, type AttemptLimiter } from '#api/lib/attempt-limiter.ts';
import type { ThrottleStore } from '#api/lib/throttle-store.ts';

const minutes = (n: number) => n * 60_000;

/** The account routes' throttles: OTP requests and checks, and password changes. */
export type AccountLimiters = {
  /** Any OTP request (forgot or resend) per client IP. */
  otpByIp: AttemptLimiter;
  /** OTP sends per email in an hour. */
  otpByEmail: AttemptLimiter;
  /** The 30 s between two sends to one email. */
  resendGap: AttemptLimiter;
  /** Wrong OTPs per client IP (the per-OTP limit is 5, this stops spraying many emails). */
  verifyByIp: AttemptLimiter;
  /** Wrong OTPs per email from anywhere: a capped back-off across OTPs, never a lock (decisions: sign-in throttling). */
  verifyByEmail: AttemptLimiter;
  /** Wrong current passwords per user on change-password. */
  changeByUser: AttemptLimiter;
};

/** In the app's throttle store, like sign-in's (see attempt-limiter.ts); they read the same clock as the service. */
export function defaultAccountLimiters(now: () => Date, store?: ThrottleStore): AccountLimiters {
  const clock = () => now().getTime();
  const limiter = (name: string, max: number, windowMs: number) =>
    createAttemptLimiter({ name, max, windowMs, now: clock, store });
  return {
    otpByIp: limiter('otp-ip', 30, minutes(15)),
    otpByEmail: limiter('otp-email', 6, minutes(60)),
    resendGap: limiter('otp-resend', 1, otpResendSeconds * 1000),
    verifyByIp: limiter('otp-verify-ip', 30, minutes(15)),
    verifyByEmail: createBackoffLimiter({
      name: 'otp-verify-email',
      free: 5,
      baseMs: 1000,
      capMs: 30_000,
      forgetMs: minutes(15),
      now: clock,
      store,
    }),
    changeByUser: limiter('password-change', 5, minutes(15)),
  };
}
