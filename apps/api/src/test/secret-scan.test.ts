import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { patients } from '../db/schema/devices.ts';
import { collectSecrets, recordPatients, recordSecrets, scanForSecrets } from './secret-scan.ts';
import { addDevice } from './device-fixtures.ts';
import { createTestApp } from './test-app.ts';

describe('the secret scan of the test logs', () => {
  it('finds a noted secret in a log or audit row file, and an OTP only standing alone', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scan-'));
    try {
      writeFileSync(path.join(dir, 'secrets-1.txt'), 'Hunter-2-password\n654321\n');
      writeFileSync(
        path.join(dir, 'pino-1.log'),
        '{"msg":"fine","responseTime":3.6543219}\n{"msg":"oops Hunter-2-password"}\n',
      );
      writeFileSync(
        path.join(dir, 'rows-1.jsonl'),
        '{"message":"code 654321 sent"}\n{"clientId":"e1c6e796-172a-4b39-908c-654321ed3a17"}\n',
      );
      const { hits } = scanForSecrets(dir);
      expect(hits.map((h) => `${h.file}:${h.line}`).sort()).toEqual(['pino-1.log:2', 'rows-1.jsonl:1']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('collects secrets by field name, at any depth, and ignores short or non-secret values', () => {
    const found = new Set<string>();
    collectSecrets(
      {
        email: 'a@b.co',
        password: 'pw-123456',
        data: { accessToken: 'tok.en.value', recoveryCodes: ['abcd-efgh'] },
        otp: '12',
        codeKind: 'account',
      },
      found,
    );
    expect([...found].sort()).toEqual(['abcd-efgh', 'pw-123456', 'tok.en.value']);
  });

  it('notes the secrets in answers but not the public API document, whose path keys look secret', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scan-'));
    const app = Fastify();
    try {
      const file = path.join(dir, 'secrets-1.txt');
      recordSecrets(app, file, []);
      app.get('/api/docs/json', async () => ({
        paths: { '/api/v1/profile/mfa/recovery-codes': { post: { tags: ['two-step sign-in'] } } },
      }));
      app.get('/api/v1/session', async () => ({ accessToken: 'tok.en.value' }));
      await app.inject({ url: '/api/docs/json' });
      await app.inject({ url: '/api/v1/session' });
      expect(readFileSync(file, 'utf8').trim().split('\n')).toEqual([
        '4242424242424242',
        '4000002500003155',
        '4000000000009995',
        'tok.en.value',
      ]);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('notes every patient name and email (health data), to be checked against the server log', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scan-'));
    const t = await createTestApp();
    try {
      const { deviceId } = await addDevice(t);
      const people = [
        { patientname: 'Ingrid Solberg', email: 'ingrid.solberg@example.com' },
        { patientname: 'Tomas Berg', email: 'tomas.berg@example.com' },
      ];
      await t.database.db.insert(patients).values(people.map((p) => ({ ...p, deviceId })));
      await recordPatients(t.database.db, dir, '1');
      const personal = readFileSync(path.join(dir, 'personal-1.txt'), 'utf8').split('\n');
      for (const person of people) {
        expect(personal).toContain(person.patientname);
        expect(personal).toContain(person.email);
      }
      const patient = people[0]!;
      // Found in the server log, not in an audit row (which rightly names a user who signed in).
      writeFileSync(path.join(dir, 'pino-1.log'), `{"msg":"search ${patient.patientname}"}\n`);
      writeFileSync(path.join(dir, 'rows-1.jsonl'), `{"userEmail":"${patient.email}"}\n`);
      expect(scanForSecrets(dir).hits.map((h) => h.file)).toEqual(['pino-1.log']);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
