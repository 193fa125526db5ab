import type { APIRequestContext } from '@playwright/test';
import { startSmtpPeer, type SmtpPeer } from '../../apps/api/src/test/smtp-peer.ts';
import { expect, test } from './fixtures.ts';
import { ownServerUrl, startOwnServer, type OwnServer } from './own-server.ts';

/**
 * A spec's own server with a real SMTP peer, for the clinic specs (decision 088): an invitation is a
 * secret the Outbox masks, so its link is read from the mail. A server per worker (with
 * --repeat-each two workers run the file at once): `portOffset` and the next one per worker index.
 * Registers the file's beforeAll and afterAll; call it at the top of the spec.
 */
export function clinicServer(opts: {
  name: string;
  portOffset: number;
  admin: { email: string; password: string };
}) {
  const portOffset = opts.portOffset + Number(process.env.TEST_PARALLEL_INDEX ?? 0) * 2;
  const baseURL = ownServerUrl(portOffset);
  let peer: SmtpPeer;
  let server: OwnServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    peer = await startSmtpPeer();
    server = await startOwnServer({
      name: opts.name,
      portOffset,
      admin: opts.admin,
      env: { SMTP_URL: peer.url, MAIL_FROM: 'Device Admin <no-reply@example.com>' },
    });
  });
  test.afterAll(async () => {
    server?.stop();
    await peer?.close();
  });
  return {
    baseURL,
    /** The admin's bearer header, signed in through the API. */
    async adminHeaders(request: APIRequestContext) {
      const login = await request.post('/api/v1/admin/login', { data: opts.admin });
      expect(login.status(), await login.text()).toBe(200);
      return { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
    },
    /** The path of the invitation link in the newest mail to `email`. */
    async invitationLink(email: string) {
      const mail = await peer.waitFor(
        (m) => m.to.includes(email) && m.subject.includes('invitation'),
        20_000,
      );
      const link = /(http:\/\/\S+\/invite\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
      expect(link, mail.text).toBeTruthy();
      return new URL(link!).pathname;
    },
  };
}
