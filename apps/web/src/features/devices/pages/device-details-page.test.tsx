import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EnrolmentStatus } from '@app/contract/device-enrolment';
import { paths } from '#web/lib/paths.ts';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { buildDevice, ok, testId } from '#web/test/fixtures.ts';
import { startTestServer } from '#web/test/http-server.ts';
import { renderRouter } from '#web/test/render-router.tsx';
import { DeviceDetailsPage } from './device-details-page.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';

// Decision 047: what these screens offer follows the role; here it carries every permission.
signedInForEachTest();

const id = testId(7);
const seen = '2025-03-01T10:30:00.000Z';
const device = buildDevice(7, {
  lastSeenAt: seen,
  online: true,
  appVersionCode: 42,
  appVersionName: '1.4.2',
});
const qrSvg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><path d="M0 0h1v1H0z"/></svg>';
const versions = [
  { versionCode: 42, versionName: '1.4.2', firstSeenAt: seen },
  { versionCode: 41, versionName: null, firstSeenAt: '2025-02-10T08:00:00.000Z' },
];
const issued = { code: 'K7QXM-9D2PA', expiresAt: '2025-03-02T10:30:00.000Z', qrSvg };

let enrolment: EnrolmentStatus;
let statusFails = false;
const enrolmentPath = `/api/v1/admin/machine/${id}/enrolment`;

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer((request) => {
    const path = request.url.split('?')[0];
    if (path === `/api/v1/admin/machine/${id}`) return ok(device);
    if (path === `/api/v1/admin/machine/${id}/licence`)
      return ok({
        deviceId: id,
        state: 'unlicensed',
        locked: false,
        enforcement: 'lapsed',
        paidThrough: null,
        graceUntil: null,
        version: 0,
        since: null,
        exemption: null,
        events: [],
      });
    if (path === `/api/v1/admin/machine/${id}/maintenance-window`)
      return ok({ window: null, fromGroup: null, openNow: true, busySince: null });
    if (path === `/api/v1/admin/machine/${id}/app-versions`)
      return ok({ versions, totalPages: 1, total: versions.length, page: 1, limit: 10 });
    if (path === enrolmentPath)
      return statusFails
        ? { status: 500, body: { code: 500, msg: 'Something went wrong', data: null } }
        : ok(enrolment);
    if (request.method === 'POST' && path === `${enrolmentPath}/code`) {
      enrolment = { ...enrolment, pendingCodeExpiresAt: issued.expiresAt };
      return ok(issued, 'Enrolment code issued');
    }
    if (request.method === 'POST' && path === `${enrolmentPath}/revoke`) {
      enrolment = { ...enrolment, enrolled: false, enrolledAt: null, revokedAt: '2025-03-01T12:00:00.000Z' };
      return ok(null, 'Device credential revoked');
    }
    // The page's other panels (users, treatments, logs) find nothing.
    return ok(null);
  });
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  statusFails = false;
  enrolment = {
    enrolled: false,
    enrolledAt: null,
    revokedAt: null,
    pendingCodeExpiresAt: null,
  };
});

function renderPage() {
  renderRouter(
    createMemoryRouter([{ path: paths.deviceDetails.path, Component: DeviceDetailsPage }], {
      initialEntries: [paths.deviceDetails.href({ id })],
    }),
  );
}
const enrolmentCard = () => screen.findByRole('region', { name: 'Enrolment' });
const posts = (suffix: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.url === `${enrolmentPath}/${suffix}`);

describe('Device Details', { timeout: 20_000 }, () => {
  it("shows the machine's Last Seen, Online and App Version", async () => {
    renderPage();
    const details = await screen.findByRole('region', { name: 'Device Details' });
    await within(details).findByText('MN-7');
    const value = (label: string) =>
      within(details).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(value('Last Seen')).toBe(formatDateTime(seen));
    expect(value('Online')).toBe('Online');
    expect(value('App Version')).toBe('1.4.2 (42)');
  });

  it("lists the machine's app versions, newest first, with when each was first seen", async () => {
    renderPage();
    const section = await screen.findByRole('region', { name: 'App Version History' });
    const table = within(section).getByRole('region', { name: 'App version history' });
    await within(table).findByText('1.4.2');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['1', '1.4.2', '42', formatDateTime(seen)],
      ['2', 'N/A', '41', formatDateTime('2025-02-10T08:00:00.000Z')],
    ]);
    expect(
      server.requests.some((r) => r.url === `/api/v1/admin/machine/${id}/app-versions?page=1&limit=10`),
    ).toBe(true);
  });

  it('issues an enrolment code for a machine not enrolled and shows the code and its QR code once', async () => {
    renderPage();
    const card = await enrolmentCard();
    expect(await within(card).findByText('Not enrolled')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Revoke' })).toBeNull();

    await userEvent.click(within(card).getByRole('button', { name: 'Issue enrolment code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enrolment code for MN-7' });
    expect(within(dialog).getByText('K7QXM-9D2PA')).toBeTruthy();
    const qr = within(dialog).getByRole('img', { name: 'QR code of enrolment code K7QXM-9D2PA' });
    expect(qr.querySelector('img')!.getAttribute('src')).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`,
    );
    expect(within(dialog).getByText(formatDateTime(issued.expiresAt))).toBeTruthy();
    expect(within(dialog).getByText(/shown only once/)).toBeTruthy();
    // The code holds focus, so a screen reader reads it first.
    expect(document.activeElement?.textContent).toBe('K7QXM-9D2PA');

    // Escape does not lose the code by accident; Done does close it, for good.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Enrolment code for MN-7' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText('K7QXM-9D2PA')).toBeNull();
    expect(await within(card).findByText(formatDateTime(issued.expiresAt))).toBeTruthy();
    expect(posts('code')).toHaveLength(1);
  });

  it('revokes an enrolled machine after a confirmation and shows the revoked status', async () => {
    enrolment = { ...enrolment, enrolled: true, enrolledAt: '2025-02-01T09:00:00.000Z' };
    renderPage();
    const card = await enrolmentCard();
    expect(await within(card).findByText('Enrolled')).toBeTruthy();
    expect(
      within(card).getByText(`since ${formatDateTime('2025-02-01T09:00:00.000Z')}`, { exact: false }),
    ).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Issue new code' })).toBeTruthy();

    await userEvent.click(within(card).getByRole('button', { name: 'Revoke' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke enrolment' });
    // No leaves the machine enrolled.
    await userEvent.click(within(confirm).getByRole('button', { name: 'No' }));
    expect(posts('revoke')).toHaveLength(0);

    await userEvent.click(within(card).getByRole('button', { name: 'Revoke' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Revoke enrolment' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    expect(await screen.findByText('Device credential revoked')).toBeTruthy();
    expect(await within(card).findByText('Revoked')).toBeTruthy();
    expect(
      within(card).getByText(`on ${formatDateTime('2025-03-01T12:00:00.000Z')}`, { exact: false }),
    ).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Revoke' })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Issue enrolment code' })).toBeTruthy();
    expect(posts('revoke')).toHaveLength(1);
  });

  it('says when the enrolment cannot be loaded and loads it again on request', async () => {
    statusFails = true;
    renderPage();
    const card = await enrolmentCard();
    expect(await within(card).findByText('Something went wrong')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Issue enrolment code' })).toBeNull();
    statusFails = false;
    await userEvent.click(within(card).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(card).getByText('Not enrolled')).toBeTruthy());
  });

  it('offers Edit, enrolment, health data and logs only to a role carrying what each needs', async () => {
    signInWith(['devices.view']);
    enrolment = { ...enrolment, enrolled: true, enrolledAt: '2025-03-01T09:00:00.000Z' };
    renderPage();
    const details = await screen.findByRole('region', { name: 'Device Details' });
    await within(details).findByText('MN-7');
    const card = await enrolmentCard();
    expect(await within(card).findByText('Enrolled')).toBeTruthy();
    expect(within(card).queryAllByRole('button')).toEqual([]);
    expect(within(details).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(await screen.findByRole('region', { name: 'App Version History' })).toBeTruthy();
    for (const hidden of ['Device Users', 'Treatment Records', 'Logs Management'])
      expect(screen.queryByRole('region', { name: hidden })).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
    // Nothing of health data or logs was even asked for.
    expect(server.requests.filter((r) => /doctor|patient|technician|treat|logs/.test(r.url))).toEqual([]);
  });

  it('shows them with devices.edit, devices.enrol, patients.view and logs.view', async () => {
    renderPage();
    const details = await screen.findByRole('region', { name: 'Device Details' });
    expect(await within(details).findByRole('button', { name: 'Edit' })).toBeTruthy();
    const card = await enrolmentCard();
    expect(await within(card).findByRole('button', { name: 'Issue enrolment code' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Device Users' })).toBeTruthy();
    expect(
      within(screen.getByRole('tablist', { name: 'Device users' }))
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Doctors', 'Patients', 'Technicians']);
    expect(screen.getByRole('region', { name: 'Treatment Records' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Logs Management' })).toBeTruthy();
  });
});
