import { eq, sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { mfaAuthenticators } from '#api/db/schema/mfa.ts';
import { users } from '#api/db/schema/users.ts';
import { removeTwoStep } from './mfa-service.ts';

/** What the audit trail calls the operator's command (there is no signed-in actor). */
export const operatorResetResource = 'CLI admin:reset-mfa';

export type OperatorResetResult =
  | { outcome: 'reset'; email: string; sessionsEnded: number }
  | { outcome: 'no-such-user'; email: string }
  | { outcome: 'nothing-to-reset'; email: string };

/**
 * The operator's way out when nobody who could reset a user's two-step sign-in can sign in (the only
 * admin lost the phone and the recovery codes, or JWT_SECRET changed): the same removal an admin's
 * reset does, recorded in the audit trail as a security event about that user.
 */
export async function operatorResetMfa(db: Db, emailInput: string, now: Date): Promise<OperatorResetResult> {
  const email = emailInput.trim().toLowerCase();
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  if (!user) return { outcome: 'no-such-user', email };
  const [authenticator] = await db
    .select({ userId: mfaAuthenticators.userId })
    .from(mfaAuthenticators)
    .where(eq(mfaAuthenticators.userId, user.id))
    .limit(1);
  if (!authenticator) return { outcome: 'nothing-to-reset', email: user.email };
  const sessionsEnded = await removeTwoStep(db, user.id, { endSessionsAt: now });
  await db.insert(accessLogs).values({
    createdAt: now,
    resource: operatorResetResource,
    statusCode: 200,
    recordKind: 'user',
    recordId: user.id,
    event: 'mfa.reset.success',
  });
  return { outcome: 'reset', email: user.email, sessionsEnded };
}
