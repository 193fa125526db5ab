import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '#api/db/client.ts';
import { passwordResets } from '#api/db/schema/account.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { sessions, users } from '#api/db/schema/users.ts';
import { hashPassword } from '#api/lib/passwords.ts';

/** What the audit trail calls the operator's command (there is no signed-in actor). */
export const operatorResetPasswordResource = 'CLI admin:reset-password';

export type OperatorPasswordResult =
  | { outcome: 'reset'; email: string; password: string; sessionsEnded: number }
  | { outcome: 'no-such-user'; email: string };

/**
 * The operator's way back when an admin's password is lost and no mail reaches them (issue 35 item
 * 4): a new random password, shown once to the operator, every session of the user ended and any
 * pending reset code voided, in one transaction with its audit row (a security event about that user).
 */
export async function operatorResetPassword(
  db: Db,
  emailInput: string,
  now: Date,
): Promise<OperatorPasswordResult> {
  const email = emailInput.trim().toLowerCase();
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  if (!user) return { outcome: 'no-such-user', email };
  // 16 characters of base64url (96 bits), as the first admin's generated password.
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const sessionsEnded = await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    await tx
      .update(passwordResets)
      .set({ voidedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.voidedAt)));
    await tx.insert(accessLogs).values({
      createdAt: now,
      resource: operatorResetPasswordResource,
      statusCode: 200,
      recordKind: 'user',
      recordId: user.id,
      event: 'password.reset.success',
    });
    return ended.length;
  });
  return { outcome: 'reset', email: user.email, password, sessionsEnded };
}
