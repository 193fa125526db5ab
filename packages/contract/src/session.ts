import { z } from 'zod';
import { envelope } from './envelope.ts';

/**
 * Ours (not in the spec): the signed-in session's clock. Every authenticated answer also carries
 * `X-Session-Expires-In` (seconds), so the console always knows when to warn without asking.
 */
export const sessionInfoSchema = z.object({
  /** No authenticated request for this long ends the session. */
  idleTimeoutSeconds: z.number(),
  /** Seconds until the session ends if nothing else happens (idle or absolute, whichever is first). */
  expiresInSeconds: z.number(),
  /** The absolute end of the session (ISO time), however active it is. */
  expiresAt: z.string(),
});
export const sessionInfoResponseSchema = envelope(sessionInfoSchema);

export const sessionMessages = {
  kept: 'Session extended',
  warningTitle: 'Are you still there?',
  /** Shown with the seconds left: "You will be signed out in 42 seconds because of inactivity." */
  warningBody: (seconds: number) =>
    `You will be signed out in ${seconds} second${seconds === 1 ? '' : 's'} because of inactivity.`,
  staySignedIn: 'Stay signed in',
  signOut: 'Sign out',
  signedOutIdle: 'You were signed out after a period of inactivity.',
} as const;
