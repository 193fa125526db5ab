import type { Doctor, DoctorList, Patient, PatientList } from '@app/contract/device-users';
import { maskAddress, maskEmail, maskPhone } from '@app/contract/masking';

/*
 * Decision 045: lists and details carry patients' and doctors' contact data masked, for every admin;
 * an admin whose role carries patients.reveal sees one record's values by revealing it, with a reason.
 */
export const maskDoctor = (doctor: Doctor): Doctor => ({
  ...doctor,
  email: maskEmail(doctor.email),
  phonenumber: maskPhone(doctor.phonenumber),
  address: maskAddress(doctor.address),
  contactMasked: true,
});

export const maskPatient = (patient: Patient): Patient => ({
  ...patient,
  email: maskEmail(patient.email),
  phone: maskPhone(patient.phone),
  contactMasked: true,
});

export const maskDoctorList = (list: DoctorList): DoctorList => ({
  ...list,
  data: list.data.map(maskDoctor),
});
export const maskPatientList = (list: PatientList): PatientList => ({
  ...list,
  patientData: list.patientData.map(maskPatient),
});
