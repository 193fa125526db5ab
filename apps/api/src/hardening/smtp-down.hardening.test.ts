// The SMTP server is down when the real API server sends mail (a password-reset OTP, a subscription
// payment link): the requests must answer as usual, the messages wait in the outbox, and the retry
// loop delivers each exactly once after an SMTP peer (a real one, smtp-server) comes up later.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiPaths } from '@app/contract/paths';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpPeer, type SmtpPeer } from '../test/smtp-peer.ts';
import { apiEnv, call, hardeningAdmin, login, startApi } from './api-process.ts';
import { createScratchDatabase } from './private-postgres.ts';
import { writeHardeningResult, type Figure } from './result-file.ts';

const apiPort = 3604;
const smtpPort = 3605;
const downForMs = 3000;

const figures: Figure[] = [];
let passed = false;
afterAll(() => {
  writeHardeningResult({
    suite: 'faults-smtp-down',
    title: 'Faults: SMTP server down, mail retried from the outbox',
    passed,
    database: 'PostgreSQL',
    figures,
    notes: [
      `SMTP_URL points at a port where nothing listens; a forgot-password request and a new subscription link are sent; ${downForMs / 1000} s later a real SMTP peer (smtp-server) starts on that port. MAIL_RETRY_SECONDS=1 here (60 by default), back-off doubling per try, MAIL_MAX_ATTEMPTS tries at most.`,
      'Each message is stored in mail_outbox before its first try and claimed by the retry loop with FOR UPDATE SKIP LOCKED, so it is sent once even with several API instances; delivery is at least once only across a crash between the SMTP answer and the status update.',
    ],
  });
});

describe('SMTP down while the API sends mail', () => {
  it('answers the requests, keeps the mail in the outbox and delivers it once the SMTP server is up', async () => {
    const scratch = await createScratchDatabase('smtp');
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'smtp-down-'));
    const api = await startApi(
      apiEnv({
        port: apiPort,
        dataDir,
        env: { DATABASE_URL: scratch.url, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_RETRY_SECONDS: '1' },
      }),
    );
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    let peer: SmtpPeer | null = null;
    try {
      const token = await login(api.url);
      const customer = 'smtp-down-customer@example.test';
      // A subscription names a machine of the fleet (decision 068).
      const machine = await call(api.url, token, 'POST', apiPaths.machineAdd, {
        machineNumber: 'MN-SMTP-1',
        serialNumber: 'SN-SMTP-1',
        location: 'Ward 1',
        latitude: 52.37,
        longitude: 4.89,
        city: 'Amsterdam',
        country: 'Netherlands',
        address: 'Damrak 1',
      });
      expect(machine.status).toBe(201);

      let started = Date.now();
      const forgot = await call(api.url, '', 'POST', apiPaths.forgotPassword, {
        email: hardeningAdmin.email,
      });
      const forgotMs = Date.now() - started;
      started = Date.now();
      const link = await call(api.url, token, 'POST', apiPaths.subscriptionAdd, {
        fullName: 'Smtp Down',
        email: customer,
        machineSerialNumber: 'SN-SMTP-1',
        amount: 12.5,
        isRecurring: false,
      });
      const linkMs = Date.now() - started;
      expect(forgot.status).toBe(200);
      expect(link.status).toBe(201);
      const subscriptionId = (link.json?.data as { _id: string })._id;

      // Both messages are in the outbox, not sent, with the failure recorded.
      const outbox = async () =>
        (
          await db.query<{ to: string; status: string; attempts: number; last_error: string | null }>(
            `select "to", status, attempts, last_error from mail_outbox order by created_at`,
          )
        ).rows;
      let rows: Awaited<ReturnType<typeof outbox>> = [];
      for (let i = 0; i < 50 && rows.length < 2; i++) {
        rows = await outbox();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(rows.map((r) => r.to).sort()).toEqual([hardeningAdmin.email, customer].sort());
      await new Promise((resolve) => setTimeout(resolve, downForMs));
      rows = await outbox();
      expect(
        rows.every(
          (r) => r.status === 'failed' && r.attempts >= 1 && /ECONNREFUSED|connect/i.test(r.last_error ?? ''),
        ),
      ).toBe(true);
      const triesWhileDown = rows.reduce((n, r) => n + r.attempts, 0);

      peer = await startSmtpPeer({ port: smtpPort });
      const upAt = Date.now();
      const otpMail = await peer.waitFor((m) => m.to.includes(hardeningAdmin.email), 30_000);
      const linkMail = await peer.waitFor((m) => m.to.includes(customer), 30_000);
      const deliveredMs = Date.now() - upAt;
      expect(otpMail.text).toMatch(/\b\d{6}\b/);
      expect(linkMail.text).toContain(`/plans/${subscriptionId}`);

      // A few more retry rounds go by: nothing is sent a second time.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const duplicates = peer.received.length - 2;
      rows = await outbox();

      figures.push(
        { name: 'Forgot-password answer with SMTP down', value: forgotMs, unit: 'ms' },
        { name: 'Subscription link answer with SMTP down', value: linkMs, unit: 'ms' },
        { name: 'Failed tries while SMTP was down (both messages)', value: triesWhileDown },
        { name: 'Messages kept in the outbox', value: rows.length, target: '2' },
        { name: 'Time from SMTP up to both delivered', value: deliveredMs, unit: 'ms' },
        { name: 'Messages delivered', value: peer.received.length - Math.max(0, duplicates), target: '2' },
        { name: 'Messages sent twice', value: Math.max(0, duplicates), target: '0' },
      );
      expect(duplicates).toBe(0);
      expect(rows.every((r) => r.status === 'sent')).toBe(true);
      passed = true;
    } finally {
      await api.kill('SIGTERM');
      await db.end();
      await peer?.close();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
