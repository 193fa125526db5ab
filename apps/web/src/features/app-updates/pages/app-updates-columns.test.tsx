import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AppUpdateListItem } from '@app/contract/app-updates';
import { failure, ok } from '#web/test/fixtures.ts';
import { headersOf, keptListPreferences, reorderAndHide } from '#web/test/list-preferences.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import type { Answer } from '#web/test/http-server.ts';
import { AppUpdatesPage } from './app-updates-page.tsx';

signedInForEachTest();

const release = (n: number): AppUpdateListItem => ({
  _id: `u${n}`,
  id: `u${n}`,
  appName: 'com.example.device',
  versionCode: n,
  versionName: `1.${n}.0`,
  remark: 'Fix',
  updateDesc: 'Fixes',
  updateType: 1,
  apkUrl: `http://127.0.0.1/api/v1/app/updates/u${n}/apk`,
  fileName: `device-1.${n}.0.apk`,
  apkSize: 1234,
  apkSha256: 'ab'.repeat(32),
  packageName: 'com.example.device',
  createdAt: '2025-01-02T03:04:05.000Z',
  rolloutPercent: 100,
  respectsWindow: false,
  rolloutState: 'active',
  approvalPending: null,
  approvalRequestedBy: null,
  deviceCount: 3,
  progress: {
    targeted: 3,
    updated: 3,
    onOldVersion: 0,
    otherApp: 0,
    appUnknown: 0,
    notReported: 0,
    waitingForWindow: 0,
    waitingForTreatment: 0,
  },
  signatures: [],
});

const prefs = keptListPreferences('app-updates');
let holdPreferences: Promise<Answer> | null = null;
const api = serveTestApi((request, url) => {
  if (holdPreferences && url.pathname === '/api/v1/admin/preferences') return holdPreferences;
  const answered = prefs.answer(request, url);
  if (answered) return answered;
  if (url.pathname === '/api/v1/admin/system/updates/all') {
    const limit = Number(url.searchParams.get('limit'));
    return ok({ allSystems: [release(1), release(2)], totalPages: 1, total: 2, page: 1, limit });
  }
  return failure(404, 'Route not found');
});

const open = () =>
  renderPage({ path: '/admin/app-update', Component: AppUpdatesPage, at: '/admin/app-update' });

// Issue 17: the list's page size and columns follow the admin (decisions 053 and 057).
describe('App Update list preferences', { timeout: 20_000 }, () => {
  it('asks once, at the page size the admin kept, and keeps a new one', async () => {
    prefs.kept = { columns: null, pageSize: 50, sort: null };
    open();
    await within(await screen.findByRole('table', { name: 'App updates' })).findByText('1.1.0');
    expect(api.queries('/api/v1/admin/system/updates/all').map((q) => q.get('limit'))).toEqual(['50']);
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '25');
    await waitFor(() => expect(prefs.kept).toMatchObject({ pageSize: 25 }));
  });

  it('shows the kept columns in their order, the Actions last, and keeps a new order and a hidden column', async () => {
    prefs.kept = { columns: ['versionName', 'appName', 'remark'], pageSize: null, sort: null };
    open();
    const table = await screen.findByRole('table', { name: 'App updates' });
    await within(table).findByText('1.1.0');
    expect(headersOf(table)).toEqual(['Sr No', 'Version Name', 'App Name', 'Remark', 'Actions']);
    await reorderAndHide({ moveUp: 'Remark', hide: 'App Name' });
    expect(headersOf(table)).toEqual(['Sr No', 'Version Name', 'Remark', 'Actions']);
    await waitFor(() => expect(prefs.kept).toMatchObject({ columns: ['versionName', 'remark'] }));
    // Version Name names the row: it cannot be hidden.
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    expect(
      ((await screen.findByRole('checkbox', { name: /Version Name/ })) as HTMLInputElement).disabled,
    ).toBe(true);
  });

  it('keeps a column shown while the first read of the preferences was on its way', async () => {
    const held = heldAnswer();
    holdPreferences = held.answer;
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Columns' }));
    const updateType = await screen.findByRole('checkbox', { name: /Update Type/ });
    await userEvent.click(updateType);
    expect((updateType as HTMLInputElement).checked).toBe(true);
    // The read answers with what was kept before the click: nothing.
    holdPreferences = null;
    held.release(ok({ lists: {}, colorMode: 'system' }));
    await userEvent.keyboard('{Escape}');
    const table = await screen.findByRole('table', { name: 'App updates' });
    await within(table).findByText('1.1.0');
    expect(headersOf(table)).toContain('Update Type');
    await waitFor(() => expect(prefs.kept?.columns).toContain('updateType'));
  });
});
