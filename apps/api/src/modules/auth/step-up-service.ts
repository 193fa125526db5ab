import { and, eq, isNull } from 'drizzle-orm';
import { apiMessages } from '@app/contract/envelope';
import type { StepUpBody } from '@app/contract/step-up';
import type { Db } from '#api/db/client.ts';
import { sessions } from '#api/db/schema/users.ts';
import { UnauthorizedError } from '#api/lib/errors.ts';
import type { AuthContext } from '#api/lib/request-context.ts';
import { stepUpLapsesAt } from '#api/lib/step-up.ts';
import type { MfaService } from './mfa-service.ts';

/**
 * Step-up (decision 046): the signed-in admin confirms the password (and code) and this session may
 * do dangerous actions for the next few minutes. The checks are two-step sign-in's own (counted
 * against the user's and the address's limits before they run); the time is kept on the session row,
 * so it ends with the session and a change is announced to the session cache (migration 0023).
 */
export function createStepUpService({
  db,
  mfa,
  now,
}: {
  db: Db;
  mfa: Pick<MfaService, 'confirmPresence' | 'hasTwoStep'>;
  now: () => Date;
}) {
  return {
    /** Whether a step-up asks this user for a code as well (the 403 tells the console). */
    needsCode: (userId: string) => mfa.hasTwoStep(userId),

    async confirm(auth: Pick<AuthContext, 'userId' | 'sessionId'>, body: StepUpBody, ip: string) {
      await mfa.confirmPresence(auth.userId, body, ip);
      const at = now();
      const marked = await db
        .update(sessions)
        .set({ steppedUpAt: at })
        .where(and(eq(sessions.id, auth.sessionId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      // Signed out while the password was being checked: nothing to step up.
      if (marked.length === 0) throw new UnauthorizedError(apiMessages.invalidToken);
      return { steppedUpUntil: stepUpLapsesAt(at).toISOString() };
    },
  };
}
export type StepUpService = ReturnType<typeof createStepUpService>;
