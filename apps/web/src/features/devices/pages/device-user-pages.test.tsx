import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '#web/lib/format.ts';
import {
  buildAccessLog,
  buildDoctor,
  buildErrorLog,
  buildPatient,
  buildTechnician,
  buildTreatment,
  failure,
  logListOf,
  ok,
  pageOf,
  testId,
} from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { ViewDoctorPage } from './view-doctor-page.tsx';
import { ViewPatientPage } from './view-patient-page.tsx';
import { ViewTechnicianPage } from './view-technician-page.tsx';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';

// Decision 047: what these screens offer follows the role; here it carries every permission.
signedInForEachTest();

const doctor = buildDoctor(1);
const lonelyDoctor = buildDoctor(2);
const patient = buildPatient(1);
const patientWithoutDoctor = buildPatient(2, { doctorid: null, doctorName: null });
const technician = buildTechnician(1, { status: 1 });
const deviceId = testId(7);
// Two patients of the same doctor, each with a treatment (issue 35 item 5).
const doctorsTreatments = [buildTreatment(1), buildTreatment(2, { treatmentDuration: 35 })];

let hold: Promise<Answer> | null = null;

const api = serveTestApi((request, url) => {
  if (hold) return hold;
  const path = url.pathname;
  const doctorId = url.searchParams.get('doctorId');
  if (path === `/api/v1/admin/doctor/${doctor._id}`) return ok(doctor);
  if (path === `/api/v1/admin/doctor/${lonelyDoctor._id}`) return ok(lonelyDoctor);
  if (path === `/api/v1/admin/patient/${patient._id}`) return ok(patient);
  if (path === `/api/v1/admin/patient/${patientWithoutDoctor._id}`) return ok(patientWithoutDoctor);
  if (path === `/api/v1/admin/technicians/${technician._id}`) return ok(technician);
  if (path === '/api/v1/admin/patient/all') {
    const { rows, ...page } = pageOf(doctorId === doctor._id ? [patient] : []);
    return ok({ patientData: rows, ...page });
  }
  if (path === '/api/v1/admin/treatement-records/all') {
    const patientId = url.searchParams.get('patientId');
    const { rows, totalPages, ...page } = pageOf(
      doctorsTreatments.filter(
        (t) => (!doctorId || t.doctorId === doctorId) && (!patientId || t.patientId === patientId),
      ),
    );
    return ok({ data: rows, total_pages: totalPages, ...page });
  }
  if (path === '/api/v1/admin/access-logs/all') return ok(logListOf([buildAccessLog(1)]));
  if (path === '/api/v1/admin/error-logs/all') return ok(logListOf([buildErrorLog(1)]));
  if (path.startsWith('/api/v1/admin/doctor/')) return failure(404, 'Doctor not found');
  if (path.startsWith('/api/v1/admin/patient/')) return failure(404, 'Patient not found');
  return failure(404, 'Technician not found');
});

/** The value shown under a label of a details card. */
const valueOf = (card: HTMLElement, label: string) =>
  within(card).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('Doctor page', () => {
  const openDoctor = (id: string, state?: unknown) =>
    renderPage({
      path: '/admin/view-doctor/:id',
      Component: ViewDoctorPage,
      at: `/admin/view-doctor/${id}`,
      state,
    });

  it('shows a spinner until the doctor arrives, then the spec fields', async () => {
    const held = heldAnswer();
    hold = held.answer;
    openDoctor(doctor._id);
    const card = await screen.findByRole('region', { name: 'Doctor Details' });
    expect(within(card).getByRole('status').textContent).toBe('Loading...');
    hold = null;
    held.release(ok(doctor));
    await within(card).findByText('Doctor 1');
    expect(valueOf(card, 'Doctor ID')).toBe('101');
    expect(valueOf(card, 'Email')).toBe('doctor1@example.com');
    expect(valueOf(card, 'Phone Number')).toBe('5550000001');
    expect(valueOf(card, 'Created Time')).toBe(formatDateTime(doctor.createTime));
    expect(valueOf(card, 'Status')).toBe('Active');
    expect(valueOf(card, 'Address')).toBe('1 Harbour Road');
  });

  it("lists the doctor's patients, then the treatments on the second tab, both by the doctor's id", async () => {
    openDoctor(doctor._id);
    const patients = await screen.findByRole('table', { name: 'Patients' });
    expect(await within(patients).findByText('Patient 1')).toBeTruthy();
    expect(api.queries('/api/v1/admin/patient/all')[0]!.get('doctorId')).toBe(doctor._id);

    await userEvent.click(screen.getByRole('tab', { name: 'Treatment List' }));
    const treatments = await screen.findByRole('table', { name: 'Treatments' });
    expect(await within(treatments).findByText('Plan 1')).toBeTruthy();
    expect(within(treatments).getByText('20 min')).toBeTruthy();
    expect(api.queries('/api/v1/admin/treatement-records/all')[0]!.get('doctorId')).toBe(doctor._id);
    // The logs below are the doctor's own, by the app's user id.
    expect(api.queries('/api/v1/admin/access-logs/all')[0]!.get('userId')).toBe('101');
  });

  it('shows the empty texts of a doctor without patients or treatments', async () => {
    openDoctor(lonelyDoctor._id);
    expect(await screen.findByText('No Patient found.')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Treatment List' }));
    expect(await screen.findByText('No Treatment found.')).toBeTruthy();
  });

  it("says 'No Doctor found' for an unknown id and shows no lists", async () => {
    openDoctor(testId(99, 1));
    expect(await screen.findByText('No Doctor found')).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('leads back to the device it was opened from', async () => {
    openDoctor(doctor._id, { deviceId });
    await screen.findByText('Doctor 1');
    const crumbs = screen.getByRole('navigation', { name: 'breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Device View' }).getAttribute('href')).toBe(
      `/admin/device-details/${deviceId}`,
    );
    expect(within(crumbs).getByRole('link', { name: 'Device Management' }).getAttribute('href')).toBe(
      '/admin/device',
    );
    // Its logs request has reached the server before the test ends: on a busy machine it otherwise
    // lands during the next test, which checks that no logs are asked for.
    await waitFor(() => expect(api.queries('/api/v1/admin/access-logs/all')).toHaveLength(1));
  });

  it('shows no Logs Details to a role without logs.view, and asks for none', async () => {
    signInWith(['patients.view']);
    openDoctor(doctor._id);
    expect(await screen.findByRole('table', { name: 'Patients' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Logs Details' })).toBeNull();
    expect(api.queries('/api/v1/admin/access-logs/all')).toEqual([]);
  });
});

describe('Patient page', () => {
  const openPatient = (id: string) =>
    renderPage({
      path: '/admin/view-patient/:id',
      Component: ViewPatientPage,
      at: `/admin/view-patient/${id}`,
    });

  it("shows the patient's fields and only this patient's treatments, not their doctor's other patients'", async () => {
    openPatient(patient._id);
    const card = await screen.findByRole('region', { name: 'Patient Details' });
    await within(card).findByText('Patient 1');
    expect(valueOf(card, 'Email')).toBe('patient1@example.com');
    expect(valueOf(card, 'Phone Number')).toBe('5552000001');
    expect(valueOf(card, 'Created Time')).toBe(formatDateTime(patient.createTime));
    const treatments = await screen.findByRole('table', { name: 'Treatments' });
    expect(await within(treatments).findByText('Plan 1')).toBeTruthy();
    expect(within(treatments).queryByText('Plan 2')).toBeNull();
    expect(api.queries('/api/v1/admin/treatement-records/all')[0]!.get('patientId')).toBe(patient._id);
  });

  it("lists the treatments of a patient without a doctor by the patient's id", async () => {
    openPatient(patientWithoutDoctor._id);
    const treatments = await screen.findByRole('table', { name: 'Treatments' });
    expect(await within(treatments).findByText('Plan 2')).toBeTruthy();
    expect(api.queries('/api/v1/admin/treatement-records/all')[0]!.get('patientId')).toBe(
      patientWithoutDoctor._id,
    );
  });

  it("says 'No Patient found' for an unknown id", async () => {
    openPatient(testId(99, 3));
    expect(await screen.findByText('No Patient found')).toBeTruthy();
  });
});

describe('Technician page', () => {
  const openTechnician = (id: string) =>
    renderPage({
      path: '/admin/view-technician/:id',
      Component: ViewTechnicianPage,
      at: `/admin/view-technician/${id}`,
    });

  it("shows the technician's fields and logs, and the error logs on their tab", async () => {
    openTechnician(technician._id);
    const card = await screen.findByRole('region', { name: 'Technician Details' });
    await within(card).findByText('Technician 1');
    expect(valueOf(card, 'ID')).toBe('201');
    expect(valueOf(card, 'Email')).toBe('technician1@example.com');
    expect(valueOf(card, 'Status')).toBe('Inactive');
    const access = await screen.findByRole('table', { name: 'Access logs' });
    expect(await within(access).findByText('GET /api/v1/admin/machine/1')).toBeTruthy();

    await userEvent.click(screen.getByRole('tab', { name: 'Error Logs List' }));
    const errors = await screen.findByRole('table', { name: 'Error logs' });
    expect(await within(errors).findByText('Failure 1')).toBeTruthy();
    await waitFor(() => expect(api.queries('/api/v1/admin/error-logs/all')[0]!.get('userId')).toBe('201'));
  });

  it("says 'No technician found' for an unknown id", async () => {
    openTechnician(testId(99, 2));
    expect(await screen.findByText('No technician found')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Logs Details' })).toBeNull();
  });
});
