import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  doctorExportQuerySchema,
  doctorIdParamSchema,
  doctorListQuerySchema,
  doctorListResponseSchema,
  doctorResponseSchema,
  patientExportQuerySchema,
  patientIdParamSchema,
  patientListQuerySchema,
  patientListResponseSchema,
  patientResponseSchema,
  technicianExportQuerySchema,
  technicianIdParamSchema,
  technicianListQuerySchema,
  technicianListResponseSchema,
  technicianResponseSchema,
} from '@app/contract/device-users';
import type { Envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import { csvExportRoute } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import { maskDoctor, maskDoctorList, maskPatient, maskPatientList } from './contact-masks.ts';
import { contactRevealRoutes } from './contact-reveal-routes.ts';
import type { DeviceUsersService } from './device-users-service.ts';
import type { RecordAccessHistory } from './record-access-history.ts';

type DeviceUser = { _id: string; machineNumber: string | null };

/** One kind of device user: its list route and its read route; a read is audited as a record view. */
type DeviceUserRoutes<Query extends z.ZodType, List, One extends DeviceUser> = {
  kind: 'doctor' | 'patient' | 'technician';
  listPath: string;
  listSummary: string;
  query: Query;
  listResponse: z.ZodType<Envelope<List>>;
  list: (query: z.output<Query>) => Promise<List>;
  onePath: string;
  params: z.ZodType<{ id: string }>;
  response: z.ZodType<Envelope<One>>;
  get: (id: string) => Promise<One>;
  /** Masks for the contact data that lists and details never carry as it is (contact-masks.ts). */
  masks?: { list: (list: List) => List; one: (one: One) => One };
};

function deviceUserRoutes<Query extends z.ZodType, List, One extends DeviceUser>(
  app: FastifyInstance,
  routes: DeviceUserRoutes<Query, List, One>,
) {
  const tags = ['device users'];
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    routes.listPath,
    {
      config: { access: 'admin', permission: 'patients.view' },
      schema: {
        tags,
        summary: routes.listSummary,
        querystring: routes.query,
        response: { 200: routes.listResponse },
      },
    },
    // The querystring schema parsed it; a generic schema only loses that in the provider's types.
    async (request) => {
      const list = await routes.list(request.query as z.output<Query>);
      return ok(routes.masks ? routes.masks.list(list) : list);
    },
  );
  typed.get(
    routes.onePath,
    {
      config: { access: 'admin', permission: 'patients.view' },
      schema: {
        tags,
        summary: `One ${routes.kind}`,
        params: routes.params,
        response: { 200: routes.response },
      },
    },
    async (request) => {
      const record = await routes.get(request.params.id);
      await app.audit.recordView(request, {
        kind: routes.kind,
        id: record._id,
        machineNumber: record.machineNumber,
      });
      return ok(routes.masks ? routes.masks.one(record) : record);
    },
  );
}

export const deviceUsersRoutes: FastifyPluginAsyncZod<{
  deviceUsers: DeviceUsersService;
  accessHistory: RecordAccessHistory;
}> = async (app, { deviceUsers, accessHistory }) => {
  await app.register(contactRevealRoutes, { deviceUsers, accessHistory });
  // Each list as a CSV file: its filters and columns, masked as the list is unless reveal=true,
  // which needs patients.reveal and is audited as unmasked (decision 058).
  const unmasked = (q: { reveal?: string }) => q.reveal === 'true';
  const tag = 'device users';
  csvExportRoute(app, {
    path: apiPaths.doctorsExport,
    permission: 'patients.view',
    tag,
    summary:
      "Doctors as a CSV file: the list's machineNumber filter and columns, contact data masked unless reveal=true (patients.reveal)",
    query: doctorExportQuerySchema,
    list: 'doctors',
    csv: deviceUsers.exportCsv.doctors,
    unmasked,
  });
  csvExportRoute(app, {
    path: apiPaths.patientsExport,
    permission: 'patients.view',
    tag,
    summary:
      "Patients as a CSV file: the list's machineNumber and doctorId filters and columns, contact data masked unless reveal=true (patients.reveal)",
    query: patientExportQuerySchema,
    list: 'patients',
    csv: deviceUsers.exportCsv.patients,
    unmasked,
  });
  csvExportRoute(app, {
    path: apiPaths.techniciansExport,
    permission: 'patients.view',
    tag,
    summary: "Technicians as a CSV file: the list's machineNumber filter and columns",
    query: technicianExportQuerySchema,
    list: 'technicians',
    csv: deviceUsers.exportCsv.technicians,
  });
  deviceUserRoutes(app, {
    kind: 'doctor',
    listPath: apiPaths.doctorsAll,
    listSummary: 'Doctors, newest first; filter by machineNumber',
    query: doctorListQuerySchema,
    listResponse: doctorListResponseSchema,
    list: deviceUsers.listDoctors,
    onePath: apiPaths.doctor(':id'),
    params: doctorIdParamSchema,
    response: doctorResponseSchema,
    get: deviceUsers.getDoctor,
    masks: { list: maskDoctorList, one: maskDoctor },
  });
  deviceUserRoutes(app, {
    kind: 'patient',
    listPath: apiPaths.patientsAll,
    listSummary: 'Patients, newest first; filter by machineNumber and doctorId',
    query: patientListQuerySchema,
    listResponse: patientListResponseSchema,
    list: deviceUsers.listPatients,
    onePath: apiPaths.patient(':id'),
    params: patientIdParamSchema,
    response: patientResponseSchema,
    get: deviceUsers.getPatient,
    masks: { list: maskPatientList, one: maskPatient },
  });
  deviceUserRoutes(app, {
    kind: 'technician',
    listPath: apiPaths.techniciansAll,
    listSummary: 'Technicians, newest first; filter by machineNumber',
    query: technicianListQuerySchema,
    listResponse: technicianListResponseSchema,
    list: deviceUsers.listTechnicians,
    onePath: apiPaths.technician(':id'),
    params: technicianIdParamSchema,
    response: technicianResponseSchema,
    get: deviceUsers.getTechnician,
  });
};
