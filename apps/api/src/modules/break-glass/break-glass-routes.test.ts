import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakGlassMessages } from '@app/contract/break-glass';
import { breakGlassPaths } from '@app/contract/break-glass-texts';
import { logInWords } from '@app/contract/log-words';
import { permissionMessages } from '@app/contract/permissions';
import { stepUpMessages } from '@app/contract/step-up';
import { devices, patients } from '#api/db/schema/devices.ts';
import { accessLogs } from '#api/db/schema/logs.ts';
import { mailOutbox } from '#api/db/schema/mail.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { createTestApp, testAdmin, type TestApp } from '#api/test/test-app.ts';

/*
 * Decision 082 (issue 38 item 5, HIPAA §164.312(a)(2)(ii)): an admin without patients.reveal breaks
 * the glass on one patient with a reason and a fresh step-up, sees the patient unmasked for
 * BREAK_GLASS_MINUTES (each look audited as a reveal naming the break-glass), every security
 * reviewer is mailed at once, and each use waits in the review list until another reviewer signs it off.
 */

type Admin = Awaited<ReturnType<typeof signInWithPermissions>>;
let t: TestApp;
let adminToken: string;
/** May read patients, not reveal them: the one who breaks the glass. */
let breaker: Admin;
/** Reads patients and reviews: may break the glass, never sign off their own. */
let reviewingBreaker: Admin;
let reviewer: Admin;
let patientId: string;
const unknownId = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp({ BREAK_GLASS_MINUTES: '10' });
  adminToken = await t.login();
  breaker = await signInWithPermissions(t, adminToken, ['patients.view']);
  reviewingBreaker = await signInWithPermissions(t, adminToken, ['patients.view', 'security.review']);
  reviewer = await signInWithPermissions(t, adminToken, ['security.review']);
  const db = t.database.db;
  const [device] = await db
    .insert(devices)
    .values({
      machineNumber: 'BG-1',
      serialNumber: 'BG-S1',
      location: 'Clinic',
      latitude: 1,
      longitude: 2,
      city: 'Oslo',
      country: 'Norway',
      address: 'Main St 1',
    })
    .returning({ id: devices.id });
  const [patient] = await db
    .insert(patients)
    .values({
      deviceId: device!.id,
      patientname: 'Ada Glass',
      email: 'ada.glass@example.com',
      phone: '5559876543',
    })
    .returning({ id: patients.id });
  patientId = patient!.id;
});
afterAll(() => t.close());

const declare = (token: string, payload: unknown, id = patientId) =>
  t.injectAs(token, {
    method: 'POST',
    url: breakGlassPaths.patient(id),
    payload: payload as Record<string, unknown>,
  });
const use = (token: string, id = patientId) =>
  t.injectAs(token, { method: 'GET', url: breakGlassPaths.patient(id) });
const signOff = (token: string, id: string, payload: unknown) =>
  t.injectAs(token, {
    method: 'POST',
    url: breakGlassPaths.signOff(id),
    payload: payload as Record<string, unknown>,
  });
const list = (token: string, query = '') =>
  t.injectAs(token, { method: 'GET', url: `${breakGlassPaths.list}${query}` });
const openCount = async (token: string) =>
  (await t.injectAs(token, { method: 'GET', url: breakGlassPaths.count })).json().data.open as number;

describe('breaking the glass', () => {
  it('is refused to an admin who cannot read patients: 403 naming patients.view', async () => {
    const res = await declare(reviewer.token, { reason: 'Pump alarm' });
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe(permissionMessages.missing('patients.view'));
  });

  it('is refused to an admin whose role may reveal, before any password prompt', async () => {
    const res = await declare(await t.loginWithoutStepUp(), { reason: 'Pump alarm' });
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe(breakGlassMessages.mayReveal);
  });

  it('asks for a fresh step-up', async () => {
    const res = await declare(breaker.token, { reason: 'Pump alarm' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ msg: stepUpMessages.required, data: { stepUpRequired: true } });
  });

  it('needs a reason of at most 500 characters, naming the field, and a known patient', async () => {
    await t.stepUp(breaker.token, breaker.password);
    for (const payload of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const res = await declare(breaker.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().data.errors[0].path).toBe('reason');
    }
    expect((await declare(breaker.token, {})).json().msg).toContain(breakGlassMessages.reasonRequired);
    expect((await declare(breaker.token, { reason: 'Pump alarm' }, unknownId)).statusCode).toBe(404);
  });

  it('answers the patient unmasked and when the access ends, and mails every security reviewer at once', async () => {
    const declaredAt = t.clock.now.getTime();
    const res = await declare(breaker.token, { reason: 'Infusion pump alarm at night, doctor unreachable' });
    expect(res.statusCode).toBe(201);
    const { patient, access } = res.json().data;
    expect(patient).toMatchObject({ email: 'ada.glass@example.com', phone: '5559876543' });
    expect(patient.contactMasked).toBeUndefined();
    expect(access).toMatchObject({
      patientId,
      machineNumber: 'BG-1',
      userName: 'Per Mission',
      reason: 'Infusion pump alarm at night, doctor unreachable',
      active: true,
      signedOffAt: null,
    });
    expect(Date.parse(access.expiresAt) - Date.parse(access.declaredAt)).toBe(10 * 60_000);
    expect(Date.parse(access.declaredAt)).toBe(declaredAt);

    await t.app.mailer.idle();
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.subject, 'Break-glass access by%'));
    // The first admin's role carries every permission; the two reviewers' roles carry security.review.
    expect(mails.map((m) => m.to).sort()).toEqual(
      [testAdmin.email, reviewingBreaker.email, reviewer.email].sort(),
    );
    for (const mail of mails) {
      expect(mail.holdsSecret).toBe(false);
      expect(mail.text).toContain('Reason given: Infusion pump alarm at night, doctor unreachable');
      expect(mail.text).toContain(`patient ${patientId} on machine BG-1`);
      expect(mail.text).toContain(`Review it: ${t.config.publicUrl}/admin/break-glass`);
      expect(mail.text).not.toContain('ada.glass');
    }
  });

  it('writes the look to the audit trail as a reveal naming the break-glass, never the values', async () => {
    await t.app.audit.flush();
    const [row] = await t.database.db
      .select()
      .from(accessLogs)
      .where(like(accessLogs.resource, `REVEAL patient ${patientId}%`))
      .orderBy(desc(accessLogs.id))
      .limit(1);
    expect(row!.resource).toBe(
      `REVEAL patient ${patientId}: email, phone (reason: break-glass: Infusion pump alarm at night, doctor unreachable)`,
    );
    expect(row!.userEmail).toBe(breaker.email);
    expect(logInWords(row!)?.text).toBe(
      'Revealed patient on BG-1: email, phone (reason: break-glass: Infusion pump alarm at night, doctor unreachable)',
    );
    const declared = await t.database.db
      .select({ event: accessLogs.event })
      .from(accessLogs)
      .where(eq(accessLogs.resource, `POST ${breakGlassPaths.patient(':id')}`));
    expect(declared.map((r) => r.event)).toContain('break-glass.success');
  });
});

describe('using it while it lasts', () => {
  it('shows the patient again, audited each time, and refuses once the window has passed', async () => {
    const again = await use(breaker.token);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.patient.email).toBe('ada.glass@example.com');
    await t.app.audit.flush();
    const looks = await t.database.db
      .select()
      .from(accessLogs)
      .where(like(accessLogs.resource, `REVEAL patient ${patientId}: email, phone (reason: break-glass:%`));
    expect(looks).toHaveLength(2);

    t.clock.advance(10 * 60_000);
    const ended = await use(breaker.token);
    expect(ended.statusCode).toBe(403);
    expect(ended.json().msg).toBe(breakGlassMessages.notActive);
  });

  it("is never another admin's: one who declared nothing is refused", async () => {
    const res = await use(reviewingBreaker.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe(breakGlassMessages.notActive);
    expect((await use(reviewingBreaker.token, unknownId)).statusCode).toBe(404);
  });
});

describe('the review list and the sign-off', () => {
  let ownId: string;
  let otherId: string;

  beforeAll(async () => {
    // A second use, by a reviewer who may also read patients: theirs to be told of, not to sign off.
    await t.stepUp(reviewingBreaker.token, reviewingBreaker.password);
    const res = await declare(reviewingBreaker.token, { reason: 'Ventilator fault' });
    expect(res.statusCode).toBe(201);
    ownId = res.json().data.access._id;
  });

  it('lists the uses awaiting sign-off, newest first, with the bell counting them', async () => {
    const res = await list(reviewer.token, '?state=open&page=1&limit=10');
    expect(res.statusCode).toBe(200);
    const { accesses, total, totalPages } = res.json().data;
    expect({ total, totalPages }).toEqual({ total: 2, totalPages: 1 });
    expect(accesses.map((a: { reason: string }) => a.reason)).toEqual([
      'Ventilator fault',
      'Infusion pump alarm at night, doctor unreachable',
    ]);
    expect(accesses[1]).toMatchObject({ userEmail: breaker.email, active: false });
    expect(accesses[0]).toMatchObject({ userEmail: reviewingBreaker.email, active: true });
    otherId = accesses[1]._id;
    expect(await openCount(reviewer.token)).toBe(2);
    expect((await list(reviewer.token, '?state=signed-off')).json().data.accesses).toEqual([]);
    expect((await list(reviewer.token, '?state=closed')).statusCode).toBe(400);
  });

  it('refuses the admin who broke the glass, before any password prompt', async () => {
    await t.lapseStepUp(reviewingBreaker.token);
    const res = await signOff(reviewingBreaker.token, ownId, { note: 'Looks fine to me' });
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe(breakGlassMessages.ownUse);
  });

  it('needs security.review, a fresh step-up and a note', async () => {
    const noPermission = await signOff(breaker.token, otherId, { note: 'Checked' });
    expect(noPermission.json().msg).toBe(permissionMessages.missing('security.review'));
    const noStepUp = await signOff(reviewer.token, otherId, { note: 'Checked' });
    expect(noStepUp.json()).toMatchObject({ msg: stepUpMessages.required, data: { stepUpRequired: true } });
    await t.stepUp(reviewer.token, reviewer.password);
    const noNote = await signOff(reviewer.token, otherId, { note: '' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().data.errors[0].path).toBe('note');
    expect((await signOff(reviewer.token, unknownId, { note: 'Checked' })).statusCode).toBe(404);
  });

  it("is another reviewer's, once: their name, the time and the note kept; again is a 409", async () => {
    const res = await signOff(reviewer.token, otherId, { note: 'Called the ward: the alarm was real' });
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe(breakGlassMessages.signedOff);
    expect(res.json().data).toMatchObject({
      _id: otherId,
      signedOffAt: t.clock.now.toISOString(),
      signedOffByEmail: reviewer.email,
      signedOffByName: 'Per Mission',
      signOffNote: 'Called the ward: the alarm was real',
    });
    const again = await signOff(reviewer.token, otherId, { note: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(breakGlassMessages.alreadySignedOff);

    expect(await openCount(reviewer.token)).toBe(1);
    const open = (await list(reviewer.token)).json().data.accesses;
    expect(open.map((a: { _id: string }) => a._id)).toEqual([ownId]);
    const signed = (await list(reviewer.token, '?state=signed-off')).json().data.accesses;
    expect(signed.map((a: { _id: string }) => a._id)).toEqual([otherId]);

    await t.app.audit.flush();
    const [row] = await t.database.db
      .select()
      .from(accessLogs)
      .where(
        and(
          eq(accessLogs.resource, `POST ${breakGlassPaths.signOff(':id')}`),
          eq(accessLogs.statusCode, 200),
        ),
      );
    expect(row).toMatchObject({ recordKind: 'break-glass', recordId: otherId, userEmail: reviewer.email });
  });
});
