import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { signedInApp } from '#api/test/signed-in-app.ts';
import { startSmtpPeer, type SmtpPeer } from '#api/test/smtp-peer.ts';
import type { TestApp } from '#api/test/test-app.ts';
import { subscriptionRequests } from './subscription-test-requests.ts';

let peer: SmtpPeer;
let t: TestApp;
let token: string;
beforeAll(async () => {
  peer = await startSmtpPeer();
  ({ t, token } = await signedInApp({ SMTP_URL: peer.url }));
});
afterAll(async () => {
  await t.close();
  await peer.close();
});
const { created } = subscriptionRequests(() => ({ t, token }));

it('answers a new subscription at once while the SMTP server is slow to take its mail, which then arrives once', async () => {
  const email = 'slow-smtp@example.com';
  // The server takes the data, then waits 4 s before it says OK.
  const held = peer.holdNext(1, 4000);
  const started = performance.now();
  const sub = await created({ email });
  expect(performance.now() - started).toBeLessThan(2000);
  // Answered before the server had taken the mail.
  expect(peer.received.filter((m) => m.to.includes(email))).toEqual([]);

  await held;
  const mail = await peer.waitFor((m) => m.to.includes(email), 10_000);
  expect(mail.text).toContain(`/plans/${sub._id}`);
  await t.app.mailer.idle();
  expect(peer.received.filter((m) => m.to.includes(email))).toHaveLength(1);
  const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
  expect(row).toMatchObject({ status: 'sent', attempts: 1, text: '[cleared after sending]' });
});
