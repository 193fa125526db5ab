import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { BreakGlassBell } from './break-glass-bell.tsx';

let open = 2;
const api = serveTestApi((_request, url) =>
  url.pathname === '/api/v1/admin/break-glass/count' ? ok({ open }) : failure(404, 'Not found'),
);

beforeEach(() => {
  open = 2;
});

const render = () =>
  renderPage({ path: '/admin/dashboard', Component: BreakGlassBell, at: '/admin/dashboard' });

describe('the break-glass bell', () => {
  it('names how many uses await sign-off and links to the review', async () => {
    startSession(buildAdminProfile(['security.review']), 'a.b.c');
    render();
    const bell = await screen.findByRole('link', { name: '2 emergency accesses await sign-off' });
    expect(bell.getAttribute('href')).toBe('/admin/break-glass');
    expect(bell.textContent).toBe('2');
    expect(api.queries('/api/v1/admin/break-glass/count')).toHaveLength(1);
  });

  it('says one in the singular', async () => {
    startSession(buildAdminProfile(['security.review']), 'a.b.c');
    open = 1;
    render();
    expect(await screen.findByRole('link', { name: '1 emergency access awaits sign-off' })).toBeTruthy();
  });

  it('shows no badge when nothing awaits sign-off', async () => {
    startSession(buildAdminProfile(['security.review']), 'a.b.c');
    open = 0;
    render();
    expect(
      (await screen.findByRole('link', { name: '0 emergency accesses await sign-off' })).textContent,
    ).toBe('');
  });

  it('is not there for an admin who does not review, and asks nothing', async () => {
    startSession(buildAdminProfile(['patients.view', 'security.manage']), 'a.b.c');
    render();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link')).toBeNull();
    expect(api.requests).toHaveLength(0);
  });
});
