import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasureMessages, type ErasureRequest } from '@app/contract/erasure';
import { erasedMark, erasedName, erasurePaths } from '@app/contract/erasure-texts';
import { apiPaths } from '@app/contract/paths';
import { permissionMessages } from '@app/contract/permissions';
import { recordHistoryPaths } from '@app/contract/record-history';
import { patients } from '#api/db/schema/devices.ts';
import { legalHolds } from '#api/db/schema/retention.ts';
import { recordHistory } from '#api/db/schema/record-history.ts';
import { signatures } from '#api/db/schema/signatures.ts';
import { treatmentRecords } from '#api/db/schema/treatments.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';
import { seedPatient, tablesHolding, type SeededPatient } from './erasure-test-fixtures.ts';

/*
 * Decision 085 (issue 38 item 4, GDPR Art. 17): a patient's erasure request is recorded, decided
 * once with a signature, and carried out everywhere the patient appears; the record of it holds
 * none of what it erased.
 */

let t: TestApp;
let adminToken: string;
const db = () => t.database.db;
const signature = { meaning: 'approval', password: testAdmin.password };

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login();
});
afterAll(() => t.close());

const record = (payload: Record<string, unknown>, token = adminToken) =>
  t.injectAs(token, { method: 'POST', url: erasurePaths.list, payload });
const decide = (id: string, payload: Record<string, unknown>, token = adminToken) =>
  t.injectAs(token, { method: 'POST', url: erasurePaths.decide(id), payload });
const get = (url: string, query: Record<string, string> = {}, token = adminToken) =>
  t.injectAs(token, { method: 'GET', url, query });

async function requested(patient: SeededPatient, note?: string): Promise<ErasureRequest> {
  const res = await record({ patientId: patient.id, channel: 'email', receivedOn: '2026-11-20', note });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as ErasureRequest;
}

/** Everything the console and its exports answer about the patient, as one text. */
async function consoleText(patient: SeededPatient): Promise<string> {
  const answers = await Promise.all([
    get(apiPaths.patient(patient.id)),
    get(apiPaths.patientsAll, { machineNumber: patient.machineNumber }),
    get(apiPaths.treatmentsAll, { search: patient.name.slice(0, 12) }),
    get(apiPaths.treatmentsAll, { machineNumber: patient.machineNumber }),
    get(apiPaths.patientsExport, { machineNumber: patient.machineNumber, reveal: 'true' }),
    get(apiPaths.treatmentsExport, { machineNumber: patient.machineNumber, reveal: 'true' }),
    get(apiPaths.treatmentsExport, { search: patient.name.slice(0, 12), reveal: 'true' }),
    t.injectAs(adminToken, {
      method: 'POST',
      url: recordHistoryPaths.patientReveal(patient.id),
      payload: { reason: 'Patient request', page: 1, limit: 100 },
    }),
    get(apiPaths.savedViews, { list: 'treatments' }),
  ]);
  for (const a of answers) expect(a.statusCode, a.body).toBeLessThan(300);
  return answers.map((a) => a.body).join('\n');
}

describe('recording a request', () => {
  it('records one per patient awaiting a decision, named by id and machine, and refuses a second (409)', async () => {
    const patient = await seedPatient(db(), testAdmin.email);
    const request = await requested(patient, 'Asked by email, ref 77');
    expect(request).toMatchObject({
      state: 'open',
      patientId: patient.id,
      patientName: patient.name,
      machineNumber: patient.machineNumber,
      channel: 'email',
      receivedOn: '2026-11-20',
      requestedByEmail: testAdmin.email,
      decidedAt: null,
      signatures: [],
    });
    expect(request.patientLabel).toMatch(new RegExp(`^Patient \\d+ on ${patient.machineNumber}$`));
    const again = await record({ patientId: patient.id, channel: 'letter', receivedOn: '2026-11-21' });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(erasureMessages.alreadyOpen);
    const open = await get(erasurePaths.list);
    expect((open.json().data.requests as ErasureRequest[]).map((r) => r._id)).toContain(request._id);
  });

  it('answers a 400 naming the field for bad input, and 404 for an unknown request', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const cases: [Record<string, unknown>, string][] = [
      [{ patientId: 'x', channel: 'email', receivedOn: '2026-11-20' }, erasureMessages.patientIdInvalid],
      [{ patientId: unknown, channel: 'email', receivedOn: '2026-11-20' }, erasureMessages.patientNotFound],
      [{ patientId: unknown, channel: 'fax', receivedOn: '2026-11-20' }, erasureMessages.channelInvalid],
      [{ patientId: unknown, channel: 'email', receivedOn: '20/11/2026' }, erasureMessages.receivedOnInvalid],
      [{ patientId: unknown, channel: 'email', receivedOn: '2999-01-01' }, erasureMessages.receivedOnInvalid],
      [
        { patientId: unknown, channel: 'email', receivedOn: '2026-11-20', note: 'x'.repeat(501) },
        erasureMessages.noteTooLong,
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await record(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).toContain(message);
    }
    expect(
      (await record({ patientId: unknown, channel: 'email', receivedOn: '2026-11-20', x: 1 })).statusCode,
    ).toBe(400);
    expect((await get(erasurePaths.one(unknown))).statusCode).toBe(404);
    expect((await get(erasurePaths.one('nope'))).json().msg).toBe(erasureMessages.invalidId);
  });

  it('needs erasure.manage to list, record, read or decide', async () => {
    const viewer = await signInWithPermissions(t, adminToken, ['patients.view', 'patients.reveal']);
    const patient = await seedPatient(db(), testAdmin.email);
    const request = await requested(patient);
    const missing = permissionMessages.missing('erasure.manage');
    for (const res of [
      await get(erasurePaths.list, {}, viewer.token),
      await get(erasurePaths.one(request._id), {}, viewer.token),
      await record({ patientId: patient.id, channel: 'email', receivedOn: '2026-11-20' }, viewer.token),
      await decide(
        request._id,
        { decision: 'erase', signature: { ...signature, password: viewer.password } },
        viewer.token,
      ),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toBe(missing);
    }
  });
});

describe('deciding', () => {
  it('erases everything: the name, contact and treatments are nowhere in the database, the console or its exports', async () => {
    const patient = await seedPatient(db(), testAdmin.email);
    expect(Object.keys(await tablesHolding(db(), patient.name)).sort()).toEqual(
      [
        'break_glass_accesses',
        'mail_outbox',
        'patients',
        'record_history',
        'saved_views',
        'treatment_records',
      ].sort(),
    );
    expect(await consoleText(patient)).toContain(patient.name);
    const request = await requested(patient, `Asked by ${patient.name} by phone`);
    const res = await decide(request._id, { decision: 'erase', signature });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe(erasureMessages.erased);
    const decided = res.json().data as ErasureRequest;
    expect(decided).toMatchObject({
      state: 'erased',
      partsErased: ['contact', 'identity', 'treatments'],
      partsKept: [],
      legalBasis: null,
      decidedByEmail: testAdmin.email,
      patientName: erasedName,
    });
    expect(decided.signatures).toHaveLength(1);
    expect(decided.signatures[0]).toMatchObject({ meaning: 'approval', signerEmail: testAdmin.email });
    const outcome = Object.fromEntries(decided.outcome.map((o) => [`${o.place}: ${o.done}`, o.count]));
    expect(outcome).toMatchObject({
      'Treatment records: deleted': 3,
      'Treatment pictures: deleted with their treatments': 1,
      'Mail outbox: messages with the name or contact replaced': 1,
      'Saved views: views with the name or contact removed': 1,
      'Break-glass reviews: reasons and notes with the name or contact replaced': 1,
      'Erasure request notes: the name or contact replaced': 1,
    });
    for (const value of [patient.name, patient.email, patient.phone, ...patient.others])
      expect(await tablesHolding(db(), value), value).toEqual({});
    const text = await consoleText(patient);
    for (const value of [patient.name, patient.email, patient.phone]) expect(text).not.toContain(value);
    expect(text).toContain(erasedName);
    expect(text).toContain(erasedMark);
    // The record of the erasure names no erased value; the second decision is refused.
    expect(JSON.stringify((await get(erasurePaths.one(request._id))).json())).not.toMatch(
      /Zelda|Quartz|zelda/,
    );
    const again = await decide(request._id, { decision: 'refuse', legalBasis: 'legal-claims', signature });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(erasureMessages.alreadyDecided);
    expect(
      (await record({ patientId: patient.id, channel: 'email', receivedOn: '2026-11-20' })).statusCode,
    ).toBe(409);
  });

  it('erases in part: identity gone, contact and de-identified treatments kept under the retention duty', async () => {
    const patient = await seedPatient(db(), testAdmin.email);
    const request = await requested(patient);
    const res = await decide(request._id, {
      decision: 'erase-in-part',
      parts: ['identity'],
      legalBasis: 'retention-duty',
      basisNote: 'WGBO art. 7:454, 20 years',
      signature: { meaning: 'responsibility', password: testAdmin.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      state: 'erased-in-part',
      partsErased: ['identity'],
      partsKept: ['contact', 'treatments'],
      legalBasis: 'retention-duty',
      basisNote: 'WGBO art. 7:454, 20 years',
    });
    expect(await tablesHolding(db(), patient.name)).toEqual({});
    const kept = await db().select().from(treatmentRecords).where(eq(treatmentRecords.patientId, patient.id));
    expect(kept.map((k) => k.userName)).toEqual([erasedName, erasedName]);
    const [row] = await db().select().from(patients).where(eq(patients.id, patient.id));
    expect(row).toMatchObject({
      patientname: erasedName,
      nickName: null,
      age: null,
      email: patient.email,
      phone: patient.phone,
    });
    const history = await db().select().from(recordHistory).where(eq(recordHistory.recordId, patient.id));
    expect(history.filter((h) => h.field === 'patientname').every((h) => h.oldValue === erasedMark)).toBe(
      true,
    );
    expect(await consoleText(patient)).not.toContain(patient.name);
  });

  it('refuses with the legal basis and keeps everything as it was', async () => {
    const patient = await seedPatient(db(), testAdmin.email);
    const before = await tablesHolding(db(), patient.name);
    const request = await requested(patient);
    const res = await decide(request._id, { decision: 'refuse', legalBasis: 'legal-claims', signature });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      msg: erasureMessages.refused,
      data: {
        state: 'refused',
        partsErased: [],
        partsKept: ['contact', 'identity', 'treatments'],
        outcome: [],
      },
    });
    expect(await tablesHolding(db(), patient.name)).toEqual(before);
    const [signed] = await db().select().from(signatures).where(eq(signatures.recordId, request._id));
    expect(signed).toMatchObject({ recordType: 'erasure-decision', meaning: 'approval' });
  });

  it('answers a 400 naming the field for a bad decision, and a wrong password changes nothing', async () => {
    const patient = await seedPatient(db(), testAdmin.email);
    const request = await requested(patient);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ decision: 'delete', signature }, 'decision', erasureMessages.decisionInvalid],
      [
        { decision: 'erase-in-part', legalBasis: 'retention-duty', signature },
        'parts',
        erasureMessages.partsRequired,
      ],
      [
        {
          decision: 'erase-in-part',
          parts: ['contact', 'identity', 'treatments'],
          legalBasis: 'other',
          basisNote: 'x',
          signature,
        },
        'parts',
        erasureMessages.partsRequired,
      ],
      [
        { decision: 'erase-in-part', parts: ['contact'], signature },
        'legalBasis',
        erasureMessages.keptBasisRequired,
      ],
      [{ decision: 'refuse', signature }, 'legalBasis', erasureMessages.refuseBasisRequired],
      [
        { decision: 'refuse', legalBasis: 'other', signature },
        'basisNote',
        erasureMessages.basisNoteRequired,
      ],
      [{ decision: 'erase' }, 'signature', 'Signature is required'],
      [
        { decision: 'erase', signature: { ...signature, password: 'wrong-password' } },
        'signature.password',
        'Password is incorrect',
      ],
    ];
    for (const [payload, path, message] of cases) {
      const res = await decide(request._id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body, path).toContain(message);
      expect(res.body, path).toContain(path);
    }
    expect((await get(erasurePaths.one(request._id))).json().data.state).toBe('open');
    expect(Object.keys(await tablesHolding(db(), patient.name))).toContain('patients');
  });

  it('refuses to erase while a legal hold is set (409), and records a refusal on that basis', async () => {
    const patient = await seedPatient(db(), testAdmin.email);
    await db()
      .insert(legalHolds)
      .values({
        subjectKind: 'patient',
        subjectId: patient.id,
        subjectLabel: `Patient on ${patient.machineNumber}`,
        reason: 'Litigation',
        placedAt: new Date(),
        placedByEmail: testAdmin.email,
      } as typeof legalHolds.$inferInsert);
    const request = await requested(patient);
    const erase = await decide(request._id, { decision: 'erase', signature });
    expect(erase.statusCode).toBe(409);
    expect(erase.json().msg).toBe(erasureMessages.legalHold);
    expect(Object.keys(await tablesHolding(db(), patient.name))).toContain('patients');
    const refuse = await decide(request._id, { decision: 'refuse', legalBasis: 'legal-hold', signature });
    expect(refuse.json().data).toMatchObject({ state: 'refused', legalBasis: 'legal-hold' });
  });

  it('leaves the audit logs alone: append-only, naming the patient by record id only', async () => {
    const patient = await seedPatient(db(), testAdmin.email);
    await get(apiPaths.patient(patient.id));
    const request = await requested(patient);
    const decided = (await decide(request._id, { decision: 'erase', signature })).json()
      .data as ErasureRequest;
    const logs = decided.outcome.find((o) => o.place === 'Access logs');
    expect(logs?.count).toBeGreaterThan(0);
    const refused = await db()
      .execute(sql`update record_history set old_value = '"x"' where record_id = ${patient.id}`)
      .then(
        () => 'changed',
        (e: Error) => String(e.cause ?? e.message),
      );
    expect(refused).toMatch(/append-only/);
  });
});
