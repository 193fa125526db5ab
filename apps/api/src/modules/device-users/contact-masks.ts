import type { Doctor, DoctorList, Patient, PatientList } from '@app/contract/device-users';
import { maskAddress, maskEmail, maskPhone } from '@app/contract/masking';
import type { FastifyRequest } from 'fastify';

/** Whether this admin sees contact data as it is (decision 045); everyone else gets masks. */
export const mayReveal = (request: FastifyRequest) =>
  request.auth?.permissions.includes('patients.reveal') === true;

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
