import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { clinicUserMessages, clinicUserPaths } from '@app/contract/clinic-users-texts';
import { failure, ok, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { InviteClinicUserButton } from './invite-clinic-user-button.tsx';

/* Decision 088: the supplier invites a clinic's manager from the customer's page. */

const customerId = testId(3);
const api = serveTestApi((request, url) => {
  if (url.pathname !== clinicUserPaths.adminInvitations(customerId)) return failure(404, 'Route not found');
  const { email } = JSON.parse(request.body) as { email: string };
  if (email === 'taken@clinic.example') return failure(409, clinicUserMessages.emailTaken);
  return ok(
    { _id: testId(4), email, role: 'manager', expiresAt: '', createdAt: '' },
    clinicUserMessages.invitationSent,
    201,
  );
});

function Page() {
  return <InviteClinicUserButton customerId={customerId} />;
}

describe('Invite user (a customer’s page)', () => {
  it('sends the email and role (Manager by default); a taken email goes under its field', async () => {
    renderPage({ path: '/c', Component: Page, at: '/c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Invite user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a clinic user' });
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'taken@clinic.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText(clinicUserMessages.emailTaken)).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText(/Email/));
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'boss@clinic.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(JSON.parse(api.requests.at(-1)!.body)).toEqual({ email: 'boss@clinic.example', role: 'manager' });
  });
});
