import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClinicUsers } from '@app/contract/clinic-users';
import { clinicUserMessages, clinicUserPaths } from '@app/contract/clinic-users-texts';
import { clearSession, startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { ClinicUsersPage } from './clinic-users-page.tsx';

/* Decision 088: a manager's own clinic's users, inviting a colleague and removing one. */

const me = testId(1);
let people: ClinicUsers;
let list: () => ReturnType<typeof ok>;
const api = serveTestApi((request, url) => {
  if (url.pathname === clinicUserPaths.users && request.method === 'GET') return list();
  if (url.pathname === clinicUserPaths.users && request.method === 'POST') {
    const { email } = JSON.parse(request.body) as { email: string };
    if (email === 'taken@clinic.example') return failure(409, clinicUserMessages.emailTaken);
    return ok(
      {
        _id: testId(9),
        email,
        role: 'staff',
        expiresAt: '2026-12-02T10:00:00.000Z',
        createdAt: '2026-11-29T10:00:00.000Z',
      },
      clinicUserMessages.invitationSent,
      201,
    );
  }
  if (url.pathname === clinicUserPaths.user(testId(2)) && request.method === 'DELETE')
    return ok(null, clinicUserMessages.removed);
  return failure(404, 'Route not found');
});

beforeEach(() => {
  people = {
    users: [
      {
        _id: me,
        firstName: 'Mia',
        lastName: 'Manager',
        email: 'mia@clinic.example',
        role: 'manager',
        mfaEnabled: true,
        createdAt: '2026-11-01T10:00:00.000Z',
      },
      {
        _id: testId(2),
        firstName: 'Sam',
        lastName: 'Staff',
        email: 'sam@clinic.example',
        role: 'staff',
        mfaEnabled: false,
        createdAt: '2026-11-02T10:00:00.000Z',
      },
    ],
    invitations: [],
  };
  list = () => ok(people);
  startSession(
    buildAdminProfile([], {
      _id: me,
      role: { _id: 'r', roleName: 'Clinic manager', type: 'clinic', permissions: [] },
      clinic: { _id: 'c', name: 'Clinique', role: 'manager' },
    }),
    'a.b.c',
  );
});
afterEach(() => clearSession());

const open = () => renderPage({ path: '/clinic/users', Component: ClinicUsersPage, at: '/clinic/users' });

describe('/clinic/users', () => {
  it('lists the clinic users with their role and two-step sign-in; nobody removes themselves', async () => {
    open();
    await screen.findByText('Mia Manager');
    const table = screen.getByRole('table', { name: 'Clinic users' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Mia Manager')).toBeTruthy();
    expect(within(rows[0]!).getByText('On')).toBeTruthy();
    expect(within(rows[1]!).getByText('Staff')).toBeTruthy();
    expect(within(rows[0]!).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(within(rows[1]!).getByRole('button', { name: 'Remove sam@clinic.example' })).toBeTruthy();
    expect(screen.getByText('No invitation is waiting.')).toBeTruthy();
  });

  it('invites a colleague: a taken email goes under the field, a new one is sent and the list read again', async () => {
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Invite a colleague' }));
    const dialog = await screen.findByRole('dialog', { name: clinicUserMessages.inviteTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText(clinicUserMessages.emailRequired)).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'taken@clinic.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText(clinicUserMessages.emailTaken)).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText(/Email/));
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'new@clinic.example');
    const reads = api.queries(clinicUserPaths.users).length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = api.requests.filter((r) => r.method === 'POST').at(-1);
    expect(JSON.parse(sent!.body)).toEqual({ email: 'new@clinic.example', role: 'staff' });
    await waitFor(() => expect(api.queries(clinicUserPaths.users).length).toBeGreaterThan(reads));
  });

  it('removes a colleague after confirming', async () => {
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove sam@clinic.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove user' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'DELETE')).toBe(true));
  });

  it('shows a load error with a way to try again', async () => {
    list = () => failure(500, 'Something went wrong');
    open();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
