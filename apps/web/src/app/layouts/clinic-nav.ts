import type { ClinicRole } from '@app/contract/clinic-users-texts';
import { paths } from '#web/lib/paths.ts';

/**
 * The clinic portal's navigation (decision 088), in order. A screen of the portal adds its line
 * here: its path, label and which clinic roles see it (both when `roles` is absent). The machines,
 * figures and billing of issue 39 item 5 join this list.
 */
export type ClinicNavItem = { href: string; label: string; end?: boolean; roles?: readonly ClinicRole[] };

export const clinicNav: readonly ClinicNavItem[] = [
  { href: paths.clinic.href(), label: 'Overview', end: true },
  { href: paths.clinicMachines.href(), label: 'Machines' },
  { href: paths.clinicFigures.href(), label: 'Figures' },
  { href: paths.clinicUsage.href(), label: 'Usage report' },
  { href: paths.clinicBilling.href(), label: 'Billing' },
  { href: paths.clinicUsers.href(), label: 'Users', roles: ['manager'] },
  { href: paths.clinicActivity.href(), label: 'Activity', roles: ['manager'] },
];
