import { createQueryKeys } from '../../../lib/query-keys.ts';

/** One key factory per resource of this feature (CONVENTIONS 3). */
export const deviceKeys = createQueryKeys('devices');
export const doctorKeys = createQueryKeys('doctors');
export const patientKeys = createQueryKeys('patients');
export const technicianKeys = createQueryKeys('technicians');
export const treatmentKeys = createQueryKeys('treatments');
