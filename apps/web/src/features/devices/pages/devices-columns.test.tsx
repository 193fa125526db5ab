import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDevice, failure, ok, pageOf } from '#web/test/fixtures.ts';
import { headersOf, keptListPreferences, reorderAndHide } from '#web/test/list-preferences.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { DevicesPage } from './devices-page.tsx';

signedInForEachTest();

const prefs = keptListPreferences('devices');
serveTestApi((request, url) => {
  const answered = prefs.answer(request, url);
  if (answered) return answered;
  if (url.pathname === '/api/v1/admin/machine-facets')
    return ok({ countries: [], cities: [], appVersions: [] });
  if (url.pathname === '/api/v1/admin/machine') {
    const { rows, ...rest } = pageOf([buildDevice(1), buildDevice(2)]);
    return ok({ allDevices: rows, ...rest });
  }
  return failure(404, 'Route not found');
});

// Decision 057: Device Management had every kept preference but the order.
describe('Device Management column order', { timeout: 20_000 }, () => {
  it('shows the kept order, mandatory columns moved too, and keeps a new order', async () => {
    prefs.kept = {
      columns: ['location', 'machineNumber', 'status', 'serialNumber'],
      pageSize: null,
      sort: null,
    };
    renderPage({ path: '/admin/device', Component: DevicesPage, at: '/admin/device' });
    const table = await screen.findByRole('table', { name: 'Devices' });
    await within(table).findByText('MN-1');
    expect(headersOf(table)).toEqual([
      'Sr No',
      'Location',
      'Machine Number',
      'Status',
      'Serial Number',
      'Action',
    ]);
    await reorderAndHide({ moveUp: 'Serial Number', hide: 'Location' });
    expect(headersOf(table)).toEqual(['Sr No', 'Machine Number', 'Serial Number', 'Status', 'Action']);
    await waitFor(() =>
      expect(prefs.kept).toMatchObject({ columns: ['machineNumber', 'serialNumber', 'status'] }),
    );
  });
});
