import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Invitation } from '@app/contract/clinic-users';
import { clinicUserMessages, clinicUserPaths } from '@app/contract/clinic-users-texts';
import { clearSession, getSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { AcceptInvitationPage } from './accept-invitation-page.tsx';

/*
 * Decision 088: /invite/{token} shows the clinic, takes a name and a password (the console's rules),
 * then opens the portal with two-step sign-in offered, or asks for enrolment first when the clinic
 * requires it; a used, replaced or expired link says so.
 */

const token = 'tok3n';
const invitation: Invitation = {
  customerName: 'Clinique du Lac',
  email: 'manager@clinic.example',
  role: 'manager',
  expiresAt: '2026-12-02T10:00:00.000Z',
  requireMfa: false,
};
const profile = buildAdminProfile([], {
  email: invitation.email,
  role: { _id: 'r', roleName: 'Clinic manager', type: 'clinic', permissions: [] },
  clinic: { _id: 'c', name: invitation.customerName, role: 'manager' },
});

let answers: { read: ReturnType<typeof ok>; accept: ReturnType<typeof ok> } = {
  read: ok(invitation),
  accept: ok({ accessToken: 'a.b.c', admin: profile }, clinicUserMessages.accepted),
};
const api = serveTestApi((request, url) => {
  if (url.pathname !== clinicUserPaths.invitation(token)) return failure(404, 'Route not found');
  return request.method === 'GET' ? answers.read : answers.accept;
});
afterEach(() => clearSession());

const open = () =>
  renderPage({ path: '/invite/:token', Component: AcceptInvitationPage, at: `/invite/${token}` });

async function fillAndSubmit(password = 'Clinic-Passw0rd!', confirm = password) {
  await userEvent.type(await screen.findByLabelText('First Name'), 'Clara');
  await userEvent.type(screen.getByLabelText('Last Name'), 'Clinic');
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.type(screen.getByLabelText('Confirm Password'), confirm);
  await userEvent.click(screen.getByRole('button', { name: 'Set password and sign in' }));
}

describe('/invite/{token}', () => {
  it('names the clinic and the role, checks the password rules, then signs in and offers two-step sign-in', async () => {
    answers = {
      read: ok(invitation),
      accept: ok({ accessToken: 'a.b.c', admin: profile }, clinicUserMessages.accepted),
    };
    const router = open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Clinique du Lac' })).toBeTruthy();
    expect(screen.getByText(/invited as manager of Clinique du Lac/)).toBeTruthy();
    await fillAndSubmit('abc', 'abd');
    expect(await screen.findByText('Password must be at least 6 characters')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'Clinic-Passw0rd!');
    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'Clinic-Passw0rd!');
    await userEvent.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByRole('button', { name: 'Set up two-step sign-in' })).toBeTruthy();
    const posted = api.requests.find((r) => r.method === 'POST');
    expect(JSON.parse(posted!.body)).toEqual({
      firstName: 'Clara',
      lastName: 'Clinic',
      password: 'Clinic-Passw0rd!',
    });
    expect(getSession().details?.clinic?.name).toBe('Clinique du Lac');
    await userEvent.click(screen.getByRole('button', { name: 'Not now, open the portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/clinic'));
  });

  it('asks for enrolment before the portal when the clinic requires two-step sign-in', async () => {
    answers = {
      read: ok({ ...invitation, requireMfa: true }),
      accept: ok({ mfa: 'enrol', mfaToken: 'step' }),
    };
    open();
    expect(await screen.findByText(/This clinic requires two-step sign-in/)).toBeTruthy();
    await fillAndSubmit();
    expect(
      await screen.findByText(/Preparing two-step sign-in|requires two-step sign-in\. Set it up/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Not now, open the portal' })).toBeNull();
    expect(getSession().details).toBeNull();
  });

  it('says plainly when the link was used or has expired, with the way to sign in', async () => {
    answers = { ...answers, read: failure(410, clinicUserMessages.invitationExpired) };
    open();
    expect((await screen.findByRole('alert')).textContent).toBe(clinicUserMessages.invitationExpired);
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });
});
