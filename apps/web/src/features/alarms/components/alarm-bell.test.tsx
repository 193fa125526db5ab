import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { AlarmBell } from './alarm-bell.tsx';

let open = 3;
const api = serveTestApi((_request, url) =>
  url.pathname === '/api/v1/admin/alarms/count' ? ok({ open }) : failure(404, 'Not found'),
);

beforeEach(() => {
  open = 3;
});

const render = () => renderPage({ path: '/admin/dashboard', Component: AlarmBell, at: '/admin/dashboard' });

describe('the alarm bell', () => {
  it('names the open count and links to the open alarms', async () => {
    startSession(buildAdminProfile(['devices.view']), 'a.b.c');
    render();
    const bell = await screen.findByRole('link', { name: '3 open alarms' });
    expect(bell.getAttribute('href')).toBe('/admin/alarms?state=open');
    expect(bell.textContent).toBe('3');
    expect(api.queries('/api/v1/admin/alarms/count')).toHaveLength(1);
  });

  it('says one alarm in the singular', async () => {
    startSession(buildAdminProfile(['devices.view']), 'a.b.c');
    open = 1;
    render();
    expect(await screen.findByRole('link', { name: '1 open alarm' })).toBeTruthy();
  });

  it('shows no badge when nothing is open', async () => {
    startSession(buildAdminProfile(['devices.view']), 'a.b.c');
    open = 0;
    render();
    expect((await screen.findByRole('link', { name: '0 open alarms' })).textContent).toBe('');
  });

  it('is not there for an admin who may not see alarms, and asks nothing', async () => {
    startSession(buildAdminProfile(['logs.view']), 'a.b.c');
    render();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link')).toBeNull();
    expect(api.requests).toHaveLength(0);
  });
});
