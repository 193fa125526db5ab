import { createQueryKeys } from '#web/lib/query-keys.ts';

/** One key factory per resource of this feature (docs/architecture.md §6, key factories). */
export const deviceKeys = createQueryKeys('devices');
export const doctorKeys = createQueryKeys('doctors');
export const patientKeys = createQueryKeys('patients');
export const technicianKeys = createQueryKeys('technicians');
export const treatmentKeys = createQueryKeys('treatments');
/** A machine's enrolment (its device credential), under the machine's id. */
export const enrolmentKeys = createQueryKeys('enrolments');
/** A machine's app version history, under the machine's id. */
export const appVersionKeys = createQueryKeys('device-app-versions');
/** Who viewed or revealed a patient's or doctor's record, under its kind and id. */
export const accessHistoryKeys = createQueryKeys('access-history');
/** A machine's licence (state, dates, exemption, history), under the machine's id. */
export const licenceKeys = createQueryKeys('licences');
/** A machine's commands (issue 37): lists under the machine's id and page. */
export const commandKeys = createQueryKeys('commands');
/** A machine's maintenance window and busy flag (issue 37), under the machine's id. */
export const maintenanceWindowKeys = createQueryKeys('maintenance-windows');
