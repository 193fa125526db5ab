import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CustomerActivity } from '@app/contract/customers';
import { clinicPortalTexts } from '@app/contract/clinic-portal-texts';
import { failure, ok, pageOf } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest } from '#web/test/session.ts';
import { ClinicActivityPage } from './clinic-activity-page.tsx';

/* Issue 39 item 6: a clinic manager's view of their clinic's activity. */

const row = (n: number, over: Partial<CustomerActivity> = {}): CustomerActivity => ({
  _id: String(n),
  createdAt: '2026-02-01T10:00:00.000Z',
  userEmail: 'mia@clinic.example',
  resource: 'POST /api/v1/clinic/users',
  statusCode: 201,
  machineNumber: null,
  recordKind: 'customer',
  recordId: null,
  event: null,
  ...over,
});

let answer: 'rows' | 'none' | 'refused' = 'rows';
const asked: URL[] = [];
serveTestApi(async (_request, url) => {
  if (url.pathname !== '/api/v1/clinic/activity') return failure(404, 'Route not found');
  asked.push(url);
  if (answer === 'refused') return failure(403, 'Only a manager of the clinic may do this');
  const rows =
    answer === 'none'
      ? []
      : [
          row(2),
          row(1, {
            userEmail: clinicPortalTexts.supplierActor,
            resource: 'POST /api/v1/admin/machine/:id/assignment',
            statusCode: 200,
            machineNumber: 'MN-7',
            recordKind: 'device',
          }),
        ];
  const { rows: activity, ...rest } = pageOf(rows);
  return ok({ activity, ...rest });
});

beforeEach(() => {
  answer = 'rows';
  asked.length = 0;
});
signedInForEachTest();

const open = () =>
  renderPage({ path: '/clinic/activity', Component: ClinicActivityPage, at: '/clinic/activity' });

describe('Clinic activity', { timeout: 30_000 }, () => {
  it("lists the clinic's activity in words, the supplier's rows named as the supplier", async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Activity' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Clinic activity' });
    await within(table).findByText('mia@clinic.example');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('mia@clinic.example')).toBeTruthy();
    expect(within(rows[2]!).getByText(clinicPortalTexts.supplierActor)).toBeTruthy();
    expect(rows[2]!.textContent).toContain('MN-7');
    expect(asked[0]!.searchParams.get('page')).toBe('1');
  });

  it('says when there is nothing yet', async () => {
    answer = 'none';
    open();
    expect(await screen.findByText(clinicPortalTexts.activityEmpty)).toBeTruthy();
  });

  it("shows the API's refusal to staff, with Try again", async () => {
    answer = 'refused';
    open();
    expect(await screen.findByText('Only a manager of the clinic may do this')).toBeTruthy();
    answer = 'rows';
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Clinic activity' })).toBeTruthy();
  });
});
