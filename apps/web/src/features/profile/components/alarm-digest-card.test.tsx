import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { AlarmDigestCard } from './alarm-digest-card.tsx';

let enabled = false;
const api = serveTestApi((request, url) => {
  if (url.pathname !== '/api/v1/admin/profile/alarm-digest') return failure(404, 'Not found');
  if (request.method === 'PUT') {
    enabled = (JSON.parse(request.body) as { enabled: boolean }).enabled;
    return ok({ enabled }, enabled ? 'Daily alarm digest turned on' : 'Daily alarm digest turned off');
  }
  return ok({ enabled });
});

beforeEach(() => {
  enabled = false;
});

const open = () => renderPage({ path: '/admin/profile', Component: AlarmDigestCard, at: '/admin/profile' });

describe('the alarm digest on My Profile', () => {
  it('shows the setting as the server has it and turns it on and off', async () => {
    startSession(buildAdminProfile(['devices.view']), 'a.b.c');
    open();
    expect(await screen.findByRole('region', { name: 'Alarm digest' })).toBeTruthy();
    const toggle = await screen.findByRole('switch', { name: 'Email me a daily digest of the open alarms' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();

    await userEvent.click(toggle);
    expect(await screen.findByText('Daily alarm digest turned on')).toBeTruthy();
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    expect(JSON.parse(api.requests.find((r) => r.method === 'PUT')!.body)).toEqual({ enabled: true });

    await userEvent.click(toggle);
    expect(await screen.findByText('Daily alarm digest turned off')).toBeTruthy();
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
  });

  it('is not offered to an admin who may not see alarms, and asks nothing', async () => {
    startSession(buildAdminProfile(['logs.view']), 'a.b.c');
    open();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Alarm digest' })).toBeNull();
    expect(api.requests).toHaveLength(0);
  });
});
