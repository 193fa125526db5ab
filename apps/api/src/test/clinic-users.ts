import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { clinicUserPaths, type ClinicRole } from '@app/contract/clinic-users-texts';
import { customers } from '../db/schema/customers.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import type { TestApp } from './test-app.ts';

/*
 * Clinic users for tests (decision 088): a customer made in the database, an invitation sent through
 * the admin route and read back from the outbox, as its mail would be, and accepted through the link.
 */

export async function createCustomer(
  t: TestApp,
  over: { name?: string; requireMfa?: boolean } = {},
): Promise<{ id: string; name: string }> {
  const name = over.name ?? `Clinic ${randomBytes(4).toString('hex')}`;
  const [row] = await t.database.db
    .insert(customers)
    .values({ name, country: 'France', requireMfa: over.requireMfa ?? false })
    .returning({ id: customers.id, name: customers.name });
  return row!;
}

/** The invitation link's token in the newest mail to `email` (the outbox keeps it without SMTP). */
export async function invitationTokenFor(t: TestApp, email: string): Promise<string> {
  await t.app.mailer.idle();
  const [mail] = await t.database.db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email.toLowerCase())))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  const token = mail && /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation mail to ${email}: ${mail?.text ?? '(none)'}`);
  return token;
}

/** The supplier's admin invites `email` to the customer's clinic; answers the link's token. */
export async function inviteByAdmin(
  t: TestApp,
  adminToken: string,
  customerId: string,
  email: string,
  role: ClinicRole = 'manager',
): Promise<string> {
  // The outbox dates a mail by the app's clock: a step on, so the newest mail is this one.
  t.clock.advance(1000);
  const res = await t.injectAs(adminToken, {
    method: 'POST',
    url: clinicUserPaths.adminInvitations(customerId),
    payload: { email, role },
  });
  if (res.statusCode !== 201) throw new Error(`invitation: ${res.statusCode} ${res.body}`);
  return invitationTokenFor(t, email);
}

export const clinicPassword = 'Clinic-Passw0rd!';

/** Accepts the invitation with a name and `clinicPassword`; answers the response. */
export const acceptInvitation = (t: TestApp, token: string, password = clinicPassword) =>
  t.app.inject({
    method: 'POST',
    url: clinicUserPaths.invitation(token),
    payload: { firstName: 'Clara', lastName: 'Clinic', password },
  });

/** A clinic user of a new customer (a manager unless said), signed in: their token and ids. */
export async function signInClinicUser(
  t: TestApp,
  adminToken: string,
  opts: { customerId?: string; role?: ClinicRole } = {},
): Promise<{ token: string; userId: string; customerId: string; email: string }> {
  const customerId = opts.customerId ?? (await createCustomer(t)).id;
  const email = `clinic-${randomBytes(4).toString('hex')}@clinic.example`;
  const token = await inviteByAdmin(t, adminToken, customerId, email, opts.role ?? 'manager');
  const accepted = await acceptInvitation(t, token);
  if (accepted.statusCode !== 200) throw new Error(`accept: ${accepted.statusCode} ${accepted.body}`);
  const data = accepted.json().data as { accessToken: string; admin: { _id: string } };
  return { token: data.accessToken, userId: data.admin._id, customerId, email };
}
