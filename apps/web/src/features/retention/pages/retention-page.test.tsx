import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { retentionMessages, type LegalHold, type RetentionSchedule } from '@app/contract/retention';
import { retentionTexts } from '@app/contract/retention-texts';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { RetentionPage } from './retention-page.tsx';

/*
 * Decision 086: the Retention screen shows the schedule (period, country overrides, what happens
 * after), the last runs with their counts, and the legal holds, placed and lifted with a reason.
 */

const schedule: RetentionSchedule = {
  healthMinimumYears: 5,
  everySeconds: 86_400,
  entries: [
    {
      recordType: 'treatmentRecords',
      label: 'Treatment records',
      health: true,
      period: { days: null, years: 10 },
      measuredFrom: 'the treatment',
      action: 'delete',
      countryOverrides: [
        { country: 'Netherlands', years: 15 },
        { country: 'Poland', years: 20 },
      ],
      setting: 'HEALTH_RETENTION_YEARS',
    },
    {
      recordType: 'mail',
      label: 'Mail outbox',
      health: false,
      period: { days: null, years: null },
      measuredFrom: 'sending',
      action: 'delete',
      countryOverrides: [],
      setting: 'MAIL_RETENTION_DAYS',
    },
  ],
};

const patientId = testId(9);
let holds: LegalHold[] = [];

const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/retention/schedule') return ok(schedule);
  if (url.pathname === '/api/v1/admin/retention/runs') {
    const run = {
      _id: testId(1, 3),
      startedAt: '2030-01-02T03:00:00.000Z',
      finishedAt: '2030-01-02T03:00:02.000Z',
      removed: { treatmentRecords: 12, logs: 3400, mail: 0 },
    };
    const { rows, ...rest } = pageOf([run]);
    return ok({ runs: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/legal-holds' && request.method === 'GET') {
    const { rows, ...rest } = pageOf(holds);
    return ok({ holds: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/legal-holds' && request.method === 'POST') {
    const body = JSON.parse(request.body) as { subjectKind: 'patient'; subjectId: string; reason: string };
    if (body.subjectId !== patientId)
      return {
        status: 400,
        body: {
          code: 400,
          msg: retentionMessages.subjectNotFound('patient'),
          data: { errors: [{ path: 'subjectId', message: retentionMessages.subjectNotFound('patient') }] },
        },
      };
    const hold: LegalHold = {
      _id: testId(2, 5),
      ...body,
      subjectLabel: 'Patient on MN-7',
      placedAt: '2030-01-03T10:00:00.000Z',
      placedByEmail: 'admin@example.com',
      liftedAt: null,
      liftedByEmail: null,
      liftReason: null,
    };
    holds = [hold, ...holds];
    return ok(hold, retentionMessages.placed, 201);
  }
  const lifting = /^\/api\/v1\/admin\/legal-holds\/([^/]+)\/lift$/.exec(url.pathname);
  const hold = holds.find((h) => h._id === lifting?.[1]);
  if (hold) {
    const { reason } = JSON.parse(request.body) as { reason: string };
    const lifted = {
      ...hold,
      liftedAt: '2030-01-04T10:00:00.000Z',
      liftedByEmail: 'admin@example.com',
      liftReason: reason,
    };
    holds = holds.map((h) => (h === hold ? lifted : h));
    return ok(lifted, retentionMessages.lifted);
  }
  return failure(404, 'Not found');
});

beforeEach(() => {
  holds = [];
  startSession(buildAdminProfile(['retention.manage']), 'a.b.c');
});

const open = () => renderPage({ path: '/admin/retention', Component: RetentionPage, at: '/admin/retention' });

describe('Retention', () => {
  it('shows the schedule with its country overrides and the last runs with their counts', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: retentionTexts.title })).toBeTruthy();
    const table = await screen.findByRole('table', { name: retentionTexts.scheduleTitle });
    const row = (await within(table).findByText('Treatment records')).closest('tr')!;
    expect(within(row).getByText('10 years')).toBeTruthy();
    expect(within(row).getByText('Netherlands: 15 years; Poland: 20 years')).toBeTruthy();
    expect(within(row).getByText('Deleted')).toBeTruthy();
    const mail = within(table).getByText('Mail outbox').closest('tr')!;
    expect(within(mail).getByText('Kept forever')).toBeTruthy();
    expect(screen.getByText(retentionTexts.healthMinimum(5))).toBeTruthy();
    const runs = await screen.findByRole('table', { name: retentionTexts.runsTitle });
    expect(await within(runs).findByText('Treatment records: 12; Access and error logs: 3,400')).toBeTruthy();
    expect(await screen.findByText(retentionTexts.emptyHolds)).toBeTruthy();
  });

  it('places a hold on a patient with a reason, naming a wrong id under its field, then lifts it with a reason', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: retentionTexts.placeHold }));
    const dialog = await screen.findByRole('dialog', { name: retentionTexts.placeHoldTitle });
    await user.click(within(dialog).getByRole('button', { name: retentionTexts.placeHold }));
    expect(await within(dialog).findByText(retentionMessages.reasonRequired)).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    const id = within(dialog).getByRole('textbox', { name: retentionTexts.subjectIdLabel });
    await user.type(id, testId(8));
    await user.type(within(dialog).getByRole('textbox', { name: retentionTexts.reasonLabel }), 'Claim 42');
    await user.click(within(dialog).getByRole('button', { name: retentionTexts.placeHold }));
    expect(await within(dialog).findByText(retentionMessages.subjectNotFound('patient'))).toBeTruthy();

    await user.clear(id);
    await user.type(id, patientId);
    await user.click(within(dialog).getByRole('button', { name: retentionTexts.placeHold }));
    expect(await screen.findByText(retentionMessages.placed)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = api.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({
      subjectKind: 'patient',
      subjectId: patientId,
      reason: 'Claim 42',
    });

    const table = await screen.findByRole('table', { name: retentionTexts.holdsTitle });
    const row = (await within(table).findByText('Patient on MN-7')).closest('tr')!;
    expect(within(row).getByText(retentionTexts.active)).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: `${retentionTexts.lift}: Patient on MN-7` }));
    const lift = await screen.findByRole('dialog', { name: retentionTexts.liftTitle });
    await user.type(within(lift).getByRole('textbox', { name: retentionTexts.liftReasonLabel }), 'Settled');
    await user.click(within(lift).getByRole('button', { name: retentionTexts.lift }));
    expect(await screen.findByText(retentionMessages.lifted)).toBeTruthy();
    await waitFor(() => expect(within(table).getByText(retentionTexts.lifted)).toBeTruthy());
    expect(within(table).queryByRole('button', { name: /^Lift/ })).toBeNull();
  });
});
