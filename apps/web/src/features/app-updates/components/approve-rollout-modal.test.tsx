import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AppUpdateListItem } from '@app/contract/app-updates';
import type { Signature } from '@app/contract/signatures';
import { failure, ok } from '#web/test/fixtures.ts';
import { keptListPreferences } from '#web/test/list-preferences.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { AppUpdatesPage } from '../pages/app-updates-page.tsx';

signedInForEachTest();

/** A Force release another admin (a2) published: it waits for a second admin, the signed-in a1. */
const held: AppUpdateListItem = {
  _id: 'u5',
  id: 'u5',
  appName: 'com.example.device',
  versionCode: 15,
  versionName: '1.5.0',
  remark: 'Fix',
  updateDesc: 'Fixes',
  updateType: 2,
  apkUrl: 'http://127.0.0.1/api/v1/app/updates/u5/apk',
  fileName: 'device-1.5.0.apk',
  apkSize: 1234,
  apkSha256: 'ab'.repeat(32),
  packageName: 'com.example.device',
  createdAt: '2026-11-29T07:00:00.000Z',
  rolloutPercent: 100,
  respectsWindow: false,
  rolloutState: 'active',
  approvalPending: 'release',
  approvalRequestedBy: 'a2',
  deviceCount: 0,
  progress: {
    targeted: 0,
    updated: 0,
    onOldVersion: 0,
    otherApp: 0,
    appUnknown: 0,
    notReported: 0,
    waitingForWindow: 0,
    waitingForTreatment: 0,
  },
  signatures: [],
};
const signature: Signature = {
  id: 's1',
  signerName: 'Ada Lovelace',
  signerEmail: 'admin@example.com',
  meaning: 'approval',
  signedAt: '2026-11-29T08:00:00.000Z',
  contentHash: 'c0ffee'.padEnd(64, '0'),
};

let row = held;
let wrongPassword = false;
const prefs = keptListPreferences('app-updates');
const api = serveTestApi((request, url) => {
  const answered = prefs.answer(request, url);
  if (answered) return answered;
  if (url.pathname === '/api/v1/admin/profile/mfa')
    return ok({ enabled: false, recoveryCodesLeft: 0, required: false });
  if (url.pathname === '/api/v1/admin/system/updates/all')
    return ok({ allSystems: [row], totalPages: 1, total: 1, page: 1, limit: 10 });
  if (url.pathname === '/api/v1/admin/system/updates/u5/rollout' && request.method === 'POST') {
    if (wrongPassword)
      return {
        status: 400,
        body: {
          code: 400,
          msg: 'Password is incorrect',
          data: { errors: [{ path: 'signature.password', message: 'Password is incorrect' }] },
        },
      };
    row = { ...held, approvalPending: null, approvalRequestedBy: null, signatures: [signature] };
    return ok(row, 'Approved');
  }
  return failure(404, 'Route not found');
});

const open = () =>
  renderPage({ path: '/admin/app-update', Component: AppUpdatesPage, at: '/admin/app-update' });

describe('approving a rollout', { timeout: 20_000 }, () => {
  it('asks for the meaning and the password, sends the signature and shows it on the rollout', async () => {
    row = held;
    wrongPassword = false;
    const user = userEvent.setup();
    open();
    const approve = await screen.findByRole('button', { name: 'Approve: com.example.device 1.5.0' });
    approve.focus();
    await user.keyboard('{Enter}');
    const dialog = within(await screen.findByRole('dialog', { name: 'Approve: com.example.device 1.5.0' }));
    expect(
      dialog.getByText('com.example.device 1.5.0 is offered to the machines it was published for.'),
    ).toBeTruthy();
    await user.selectOptions(dialog.getByLabelText(/Meaning/), 'Approval');
    await user.type(dialog.getByLabelText(/Your password/), 'Admin-Passw0rd!');
    await user.click(dialog.getByRole('button', { name: 'Sign and approve' }));
    expect(await screen.findByText('Approved')).toBeTruthy();
    const post = api.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({
      action: 'approve',
      signature: { meaning: 'approval', password: 'Admin-Passw0rd!' },
    });
    const line = await screen.findByTestId('signature-line');
    expect(line.textContent).toMatch(/^Signed by Ada Lovelace · .+ · Approval/);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the dialog open with a wrong password under its field', async () => {
    row = held;
    wrongPassword = true;
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: 'Approve: com.example.device 1.5.0' }));
    const dialog = within(await screen.findByRole('dialog', { name: /^Approve:/ }));
    await user.selectOptions(dialog.getByLabelText(/Meaning/), 'Responsibility');
    await user.type(dialog.getByLabelText(/Your password/), 'Not-It');
    await user.click(dialog.getByRole('button', { name: 'Sign and approve' }));
    const error = await dialog.findByText('Password is incorrect');
    expect(dialog.getByLabelText(/Your password/).getAttribute('aria-describedby')).toContain(error.id);
    expect(screen.queryByTestId('signature-line')).toBeNull();
  });
});
