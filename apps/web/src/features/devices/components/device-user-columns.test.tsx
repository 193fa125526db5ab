import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildDoctor, buildPatient, failure, ok } from '#web/test/fixtures.ts';
import { headersOf, keptListPreferences, reorderAndHide } from '#web/test/list-preferences.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { serveTestApi } from '#web/test/test-api.ts';
import { DoctorsTable, PatientsTable } from './device-user-tables.tsx';

signedInForEachTest();

const prefs = keptListPreferences('device-users');
const api = serveTestApi((request, url) => {
  const answered = prefs.answer(request, url);
  if (answered) return answered;
  const limit = Number(url.searchParams.get('limit'));
  const page = { totalPages: 1, total: 1, page: 1, limit };
  if (url.pathname === '/api/v1/admin/doctor/all') return ok({ data: [buildDoctor(1)], ...page });
  if (url.pathname === '/api/v1/admin/patient/all') return ok({ patientData: [buildPatient(1)], ...page });
  return failure(404, 'Route not found');
});

// Two of the three tables that keep one list, 'device-users' (decision 057), side by side.
function BothTables() {
  return (
    <>
      <section aria-label="Doctors list">
        <DoctorsTable machineNumber="MN-1" />
      </section>
      <section aria-label="Patients list">
        <PatientsTable machineNumber="MN-1" />
      </section>
    </>
  );
}
const open = async () => {
  renderPage({ path: '/admin/device-details/:id', Component: BothTables, at: '/admin/device-details/d1' });
  const doctors = await screen.findByRole('table', { name: 'Doctors' });
  const patients = await screen.findByRole('table', { name: 'Patients' });
  await within(doctors).findByText('Doctor 1');
  await within(patients).findByText('Patient 1');
  return { doctors, patients };
};
const chooser = (name: string) => screen.getByRole('region', { name });

describe('Device user tables: kept page size and columns', { timeout: 20_000 }, () => {
  it('ask once, at the page size the admin kept, and keep a new one', async () => {
    prefs.kept = { columns: null, pageSize: 25, sort: null };
    await open();
    expect(api.queries('/api/v1/admin/doctor/all').map((q) => q.get('limit'))).toEqual(['25']);
    expect(api.queries('/api/v1/admin/patient/all').map((q) => q.get('limit'))).toEqual(['25']);
    await userEvent.selectOptions(within(chooser('Doctors list')).getByLabelText('Rows per page'), '10');
    await waitFor(() => expect(prefs.kept).toMatchObject({ pageSize: 10 }));
  });

  it('show the kept order; a choice in one table keeps the other tables’ own columns', async () => {
    prefs.kept = {
      columns: ['email', 'userName', 'status', 'patientname', 'doctorName'],
      pageSize: null,
      sort: null,
    };
    const { doctors, patients } = await open();
    expect(headersOf(doctors)).toEqual(['Sr No', 'Email', 'User Name', 'Status', 'Action']);
    expect(headersOf(patients)).toEqual(['Sr No', 'Email', 'Patient Name', 'Doctor', 'Action']);
    await reorderAndHide({ moveUp: 'Status', hide: 'Email', chooser: chooser('Doctors list') });
    expect(headersOf(doctors)).toEqual(['Sr No', 'Status', 'User Name', 'Action']);
    // Email is one column of the list: hidden in both; the patients' own columns stay as they were.
    expect(headersOf(patients)).toEqual(['Sr No', 'Patient Name', 'Doctor', 'Action']);
    await waitFor(() =>
      // The patients' columns stay after the doctors' column they followed.
      expect(prefs.kept).toMatchObject({ columns: ['status', 'patientname', 'doctorName', 'userName'] }),
    );
  });

  it('keep the other tables’ default columns on a first choice', async () => {
    const { patients } = await open();
    await userEvent.click(within(chooser('Doctors list')).getByRole('button', { name: 'Columns' }));
    await userEvent.click(
      await within(chooser('Doctors list')).findByRole('checkbox', { name: 'Phone Number' }),
    );
    await waitFor(() => expect(prefs.kept?.columns).not.toContain('phonenumber'));
    expect(prefs.kept?.columns).toEqual(expect.arrayContaining(['patientname', 'phone', 'doctorName']));
    expect(headersOf(patients)).toEqual([
      'Sr No',
      'Patient Name',
      'Email',
      'Phone Number',
      'Doctor',
      'Created Time',
      'Action',
    ]);
  });
});
