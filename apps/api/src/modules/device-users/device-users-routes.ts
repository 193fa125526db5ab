import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  doctorIdParamSchema,
  doctorListQuerySchema,
  doctorListResponseSchema,
  doctorResponseSchema,
  patientIdParamSchema,
  patientListQuerySchema,
  patientListResponseSchema,
  patientResponseSchema,
  technicianIdParamSchema,
  technicianListQuerySchema,
  technicianListResponseSchema,
  technicianResponseSchema,
} from '@app/contract/device-users';
import { apiPaths } from '@app/contract/paths';
import { ok } from '../../lib/envelope.ts';
import type { DeviceUsersService } from './device-users-service.ts';

export const deviceUsersRoutes: FastifyPluginAsyncZod<{ deviceUsers: DeviceUsersService }> = async (app, { deviceUsers }) => {
  const tags = ['device users'];

  app.get(
    apiPaths.doctorsAll,
    { schema: { tags, summary: 'Doctors, newest first; filter by machineNumber', querystring: doctorListQuerySchema, response: { 200: doctorListResponseSchema } } },
    async (request) => ok(await deviceUsers.listDoctors(request.query)),
  );
  app.get(
    apiPaths.doctor(':id'),
    { schema: { tags, summary: 'One doctor', params: doctorIdParamSchema, response: { 200: doctorResponseSchema } } },
    async (request) => {
      const doctor = await deviceUsers.getDoctor(request.params.id);
      app.audit.recordView(request, { kind: 'doctor', id: doctor._id, machineNumber: doctor.machineNumber });
      return ok(doctor);
    },
  );

  app.get(
    apiPaths.patientsAll,
    {
      schema: {
        tags,
        summary: 'Patients, newest first; filter by machineNumber and doctorId',
        querystring: patientListQuerySchema,
        response: { 200: patientListResponseSchema },
      },
    },
    async (request) => ok(await deviceUsers.listPatients(request.query)),
  );
  app.get(
    apiPaths.patient(':id'),
    { schema: { tags, summary: 'One patient', params: patientIdParamSchema, response: { 200: patientResponseSchema } } },
    async (request) => {
      const patient = await deviceUsers.getPatient(request.params.id);
      app.audit.recordView(request, { kind: 'patient', id: patient._id, machineNumber: patient.machineNumber });
      return ok(patient);
    },
  );

  app.get(
    apiPaths.techniciansAll,
    {
      schema: {
        tags,
        summary: 'Technicians, newest first; filter by machineNumber',
        querystring: technicianListQuerySchema,
        response: { 200: technicianListResponseSchema },
      },
    },
    async (request) => ok(await deviceUsers.listTechnicians(request.query)),
  );
  app.get(
    apiPaths.technician(':id'),
    { schema: { tags, summary: 'One technician', params: technicianIdParamSchema, response: { 200: technicianResponseSchema } } },
    async (request) => {
      const technician = await deviceUsers.getTechnician(request.params.id);
      app.audit.recordView(request, { kind: 'technician', id: technician._id, machineNumber: technician.machineNumber });
      return ok(technician);
    },
  );
};
