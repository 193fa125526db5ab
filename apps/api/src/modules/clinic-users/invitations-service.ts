import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AcceptInvitationBody, Invitation, PendingInvitation } from '@app/contract/clinic-users';
import {
  clinicUserMessages as m,
  invitationPagePath,
  invitationValidHours,
  type ClinicRole,
} from '@app/contract/clinic-users-texts';
import type { Db } from '#api/db/client.ts';
import { clinicInvitations } from '#api/db/schema/clinic-users.ts';
import { customers } from '#api/db/schema/customers.ts';
import { clinicRoleIds, users } from '#api/db/schema/users.ts';
import { assertNotCommonPassword } from '#api/lib/common-passwords.ts';
import { AppError, ConflictError, NotFoundError } from '#api/lib/errors.ts';
import type { Mailer } from '#api/lib/mailer.ts';
import { isUniqueViolation } from '#api/lib/pagination.ts';
import { hashPassword } from '#api/lib/passwords.ts';
import { withActor, type HistoryActor } from '#api/lib/record-history.ts';
import { invitationMail } from './invitation-mail.ts';

/** A link that was good once and is not any more (used, expired, replaced): said plainly, as 410. */
class GoneError extends AppError {
  constructor(message: string) {
    super(410, message);
  }
}

const invitationTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

type Deps = {
  db: Db;
  now: () => Date;
  mailer: Pick<Mailer, 'send'>;
  /** The console's public address: the mailed link's origin. */
  publicUrl: string;
};

const pendingOf = (row: typeof clinicInvitations.$inferSelect): PendingInvitation => ({
  _id: row.id,
  email: row.email,
  role: row.role,
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

/**
 * Invitations of clinic users (decision 088). The token is 256 random bits, mailed once and kept as
 * its hash; accepting it creates the user with the invitation's clinic and role, in the same
 * transaction that marks it used, so a link can make one account only.
 */
export function createInvitationsService({ db, now, mailer, publicUrl }: Deps) {
  async function customerOf(customerId: string) {
    const [customer] = await db
      .select({ id: customers.id, name: customers.name, requireMfa: customers.requireMfa })
      .from(customers)
      .where(eq(customers.id, customerId))
      .limit(1);
    if (!customer) throw new NotFoundError(m.customerNotFound);
    return customer;
  }

  async function emailTaken(email: string) {
    const [user] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    return user !== undefined;
  }

  /** The invitation behind a token, if it still works; otherwise why not. */
  async function usable(token: string) {
    const [row] = await db
      .select({
        invitation: clinicInvitations,
        customerName: customers.name,
        requireMfa: customers.requireMfa,
      })
      .from(clinicInvitations)
      .innerJoin(customers, eq(clinicInvitations.customerId, customers.id))
      .where(eq(clinicInvitations.tokenHash, invitationTokenHash(token)))
      .limit(1);
    if (!row) throw new NotFoundError(m.invitationNotFound);
    const { invitation } = row;
    if (invitation.usedAt) throw new GoneError(m.invitationUsed);
    if (invitation.revokedAt) throw new GoneError(m.invitationRevoked);
    if (invitation.expiresAt <= now()) throw new GoneError(m.invitationExpired);
    return row;
  }

  return {
    customerOf,

    /**
     * Mails an invitation to `email` for the customer's clinic. A waiting invitation to the same
     * person for the same clinic is replaced (its link stops working): the newest mail is the one.
     */
    async invite(input: {
      customerId: string;
      email: string;
      role: ClinicRole;
      invitedBy: { userId: string; email: string };
    }): Promise<PendingInvitation> {
      const customer = await customerOf(input.customerId);
      const email = input.email.trim().toLowerCase();
      if (await emailTaken(email)) throw new ConflictError(m.emailTaken);
      const token = randomBytes(32).toString('base64url');
      const at = now();
      const expiresAt = new Date(at.getTime() + invitationValidHours * 3600_000);
      const row = await db.transaction(async (tx) => {
        await tx
          .update(clinicInvitations)
          .set({ revokedAt: at })
          .where(
            and(
              eq(clinicInvitations.customerId, customer.id),
              eq(clinicInvitations.email, email),
              isNull(clinicInvitations.usedAt),
              isNull(clinicInvitations.revokedAt),
            ),
          );
        const [created] = await tx
          .insert(clinicInvitations)
          .values({
            customerId: customer.id,
            email,
            role: input.role,
            tokenHash: invitationTokenHash(token),
            expiresAt,
            invitedBy: input.invitedBy.userId,
            createdAt: at,
          })
          .returning();
        return created!;
      });
      await mailer.send(
        invitationMail({
          to: email,
          customerName: customer.name,
          role: input.role,
          invitedBy: input.invitedBy.email,
          link: `${publicUrl.replace(/\/$/, '')}${invitationPagePath(token)}`,
          validHours: invitationValidHours,
        }),
      );
      return pendingOf(row);
    },

    /** The customer's invitations still waiting to be accepted, newest first. */
    async pending(customerId: string): Promise<PendingInvitation[]> {
      const rows = await db
        .select()
        .from(clinicInvitations)
        .where(
          and(
            eq(clinicInvitations.customerId, customerId),
            isNull(clinicInvitations.usedAt),
            isNull(clinicInvitations.revokedAt),
            gt(clinicInvitations.expiresAt, now()),
          ),
        )
        .orderBy(desc(clinicInvitations.createdAt))
        .limit(500);
      return rows.map(pendingOf);
    },

    /** What the invitation page shows: the clinic, the email and role, until when it works. */
    async read(token: string): Promise<Invitation> {
      const { invitation, customerName, requireMfa } = await usable(token);
      return {
        customerName,
        email: invitation.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
        requireMfa,
      };
    },

    /**
     * Creates the invited user with their name and password, and uses the invitation up, in one
     * transaction. Answers the new user's id and clinic, for the session (or enrolment) that follows.
     */
    async accept(
      token: string,
      body: AcceptInvitationBody,
    ): Promise<{ userId: string; email: string; customerId: string }> {
      const { invitation } = await usable(token);
      assertNotCommonPassword(body.password, 'password');
      if (await emailTaken(invitation.email)) throw new ConflictError(m.emailTaken);
      const passwordHash = await hashPassword(body.password);
      const at = now();
      try {
        return await db.transaction(async (tx) => {
          const claimed = await tx
            .update(clinicInvitations)
            .set({ usedAt: at })
            .where(
              and(
                eq(clinicInvitations.id, invitation.id),
                isNull(clinicInvitations.usedAt),
                isNull(clinicInvitations.revokedAt),
                gt(clinicInvitations.expiresAt, at),
              ),
            )
            .returning({ id: clinicInvitations.id });
          if (claimed.length === 0) throw new GoneError(m.invitationUsed);
          const [user] = await tx
            .insert(users)
            .values({
              firstName: body.firstName,
              lastName: body.lastName,
              // The email is the clinic user's user name too: unique, and what they sign in with.
              userName: invitation.email,
              email: invitation.email,
              passwordHash,
              roleId: clinicRoleIds[invitation.role],
              customerId: invitation.customerId,
              createdAt: at,
              updatedAt: at,
            })
            .returning({ id: users.id });
          return { userId: user!.id, email: invitation.email, customerId: invitation.customerId };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(m.emailTaken);
        throw error;
      }
    },

    /** A manager (or the supplier) removes a clinic user; their sessions go with them. */
    async removeUser(customerId: string, userId: string, actor: HistoryActor | null) {
      const removed = await withActor(db, actor, (tx) =>
        tx
          .delete(users)
          .where(and(eq(users.id, userId), eq(users.customerId, customerId)))
          .returning({ id: users.id }),
      );
      if (removed.length === 0) throw new NotFoundError(m.userNotFound);
    },
  };
}
export type InvitationsService = ReturnType<typeof createInvitationsService>;
