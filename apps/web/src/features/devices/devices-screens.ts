import type { AdminScreen } from '#web/lib/admin-screens.ts';
import { lazyPage } from '#web/lib/lazy-page.ts';
import { paths } from '#web/lib/paths.ts';

/** The machines' screens and the people and records on them (lib/admin-screens.ts). */
export const devicesScreens: readonly AdminScreen[] = [
  {
    route: paths.devices,
    title: 'Device Management',
    page: lazyPage(() => import('./pages/devices-page.tsx'), 'DevicesPage'),
    permission: 'devices.view',
    nav: {
      order: 20,
      icon: 'device',
      also: [paths.deviceDetails, paths.viewDoctor, paths.viewPatient, paths.viewTechnician],
    },
  },
  {
    route: paths.deviceDetails,
    title: 'Device Details',
    page: lazyPage(() => import('./pages/device-details-page.tsx'), 'DeviceDetailsPage'),
    permission: 'devices.view',
  },
  {
    route: paths.viewDoctor,
    title: 'Doctor Details',
    page: lazyPage(() => import('./pages/view-doctor-page.tsx'), 'ViewDoctorPage'),
    permission: 'patients.view',
  },
  {
    route: paths.viewPatient,
    title: 'Patient Details',
    page: lazyPage(() => import('./pages/view-patient-page.tsx'), 'ViewPatientPage'),
    permission: 'patients.view',
  },
  {
    route: paths.viewTechnician,
    title: 'Technician Details',
    page: lazyPage(() => import('./pages/view-technician-page.tsx'), 'ViewTechnicianPage'),
    permission: 'patients.view',
  },
  {
    route: paths.treatments,
    title: 'Treatment Records',
    page: lazyPage(() => import('./pages/treatments-page.tsx'), 'TreatmentsPage'),
    permission: 'patients.view',
    // Its own place in the sidebar (issue 35 item 7): the fleet's records, not only the dashboard's links.
    nav: { order: 25, icon: 'logs' },
  },
];
