import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessLogItemSchema,
  batchBodySchema,
  batchResponseSchema,
  deviceApiMessages,
  doctorItemSchema,
  errorLogItemSchema,
  maxBatchItems,
  patientItemSchema,
  treatmentItemSchema,
} from '@app/contract/device-api';
import {
  appDoctorListResponseSchema,
  appListQuerySchema,
  appPatientListResponseSchema,
  appTreatmentListResponseSchema,
} from '@app/contract/device-app-reads';
import { apiPaths } from '@app/contract/paths';
import { clientAddress } from '#api/lib/audit.ts';
import { ok } from '#api/lib/envelope.ts';
import { ForbiddenError } from '#api/lib/errors.ts';
import { requireAppUser, requireDevice } from '#api/lib/request-context.ts';
import type { AppUserContext } from '../device-auth.ts';
import type { DeviceApiDeps } from '../device-api-module.ts';
import { createAppReadsService } from './app-reads-service.ts';
import { createLogsSyncService } from './logs-sync-service.ts';
import { createPeopleSyncService } from './people-sync-service.ts';
import { createTreatmentsSyncService } from './treatments-sync-service.ts';

const deviceOnly = [{ device: [] }];
const deviceAndSession = [{ device: [], appSession: [] }];

const batchNote =
  `Items are answered one by one, in order: { id, status: accepted | refused, reason } (the reason names the field). ` +
  `Idempotent by each item's id: a retried item answers 'accepted' again and is never stored twice. ` +
  `Device times more than 5 minutes ahead of the server, or more than a year old, are refused. At most ${maxBatchItems} items.`;

/** A treatment batch carries base64 pictures (up to 6 of 5 MB each per item); the global limit is 256 KB. */
const treatmentBodyLimit = 40 * 1024 * 1024;

function as(user: AppUserContext, kind: AppUserContext['kind'], message: string) {
  if (user.kind !== kind) throw new ForbiddenError(message);
  return user;
}

/** Batches of doctors, patients, treatments, access and error logs from a machine's app; scoped reads. */
export const syncRoutes: FastifyPluginAsyncZod<DeviceApiDeps> = async (app, { db, now }) => {
  const people = createPeopleSyncService({ db, now });
  const treatments = createTreatmentsSyncService({ db, now });
  const logs = createLogsSyncService({ db, now });
  const reads = createAppReadsService({ db });

  app.post(
    apiPaths.appDoctors,
    {
      config: { access: 'app-user', nulCheckedPerItem: true },
      schema: {
        tags: ['device'],
        summary: 'Register doctors on this machine (a technician signed in on it)',
        description: `Each doctor can then sign in on this machine with username and password. roleId is the numeric id of a role of type app; machineNumber must be this machine's. ${batchNote}`,
        body: batchBodySchema(doctorItemSchema, 'Doctors to register'),
        response: { 200: batchResponseSchema },
        security: deviceAndSession,
      },
    },
    async (request) => {
      const technician = as(requireAppUser(request), 'technician', deviceApiMessages.onlyTechnicians);
      return ok(await people.registerDoctors(requireDevice(request), technician, request.body.items));
    },
  );

  app.post(
    apiPaths.appPatients,
    {
      config: { access: 'app-user', nulCheckedPerItem: true },
      schema: {
        tags: ['device'],
        summary: 'Register patients of the signed-in doctor',
        description: `machineNumber must be this machine's. ${batchNote}`,
        body: batchBodySchema(patientItemSchema, 'Patients to register'),
        response: { 200: batchResponseSchema },
        security: deviceAndSession,
      },
    },
    async (request) => {
      const doctor = as(requireAppUser(request), 'doctor', deviceApiMessages.onlyDoctors);
      return ok(await people.registerPatients(requireDevice(request), doctor, request.body.items));
    },
  );

  app.post(
    apiPaths.appTreatments,
    {
      bodyLimit: treatmentBodyLimit,
      config: { access: 'app-user', nulCheckedPerItem: true },
      schema: {
        tags: ['device'],
        summary: 'Record treatments of the signed-in doctor, with their pictures',
        description:
          `patientId is the id the app gave the patient when registering them (a patient of this doctor). ` +
          `Pictures: base64 PNG or JPEG, checked by content, re-encoded as JPEG (longest side 1280 px), at most 5 MB each; ` +
          `a bad picture refuses only its treatment. The body may be up to 40 MB. ${batchNote}`,
        body: batchBodySchema(treatmentItemSchema, 'Treatment records'),
        response: { 200: batchResponseSchema },
        security: deviceAndSession,
      },
    },
    async (request) => {
      const doctor = as(requireAppUser(request), 'doctor', deviceApiMessages.onlyDoctors);
      return ok(await treatments.record(requireDevice(request), doctor, request.body.items));
    },
  );

  app.post(
    apiPaths.appAccessLogs,
    {
      config: { access: 'device', nulCheckedPerItem: true },
      schema: {
        tags: ['device'],
        summary: "The app's access logs (no app session needed: logs may predate any sign-in)",
        description: `userId, when sent, must be a doctor or technician of this machine; location defaults to the caller's address. ${batchNote}`,
        body: batchBodySchema(accessLogItemSchema, 'Access log entries'),
        response: { 200: batchResponseSchema },
        security: deviceOnly,
      },
    },
    async (request) =>
      ok(await logs.accessLogs(requireDevice(request), request.body.items, clientAddress(request))),
  );

  app.post(
    apiPaths.appErrorLogs,
    {
      config: { access: 'device', nulCheckedPerItem: true },
      schema: {
        tags: ['device'],
        summary: "The app's error logs (no app session needed)",
        description: `userId, when sent, must be a doctor or technician of this machine. ${batchNote}`,
        body: batchBodySchema(errorLogItemSchema, 'Error log entries'),
        response: { 200: batchResponseSchema },
        security: deviceOnly,
      },
    },
    async (request) =>
      ok(await logs.errorLogs(requireDevice(request), request.body.items, clientAddress(request))),
  );

  app.get(
    apiPaths.appDoctors,
    {
      config: { access: 'app-user' },
      schema: {
        tags: ['device'],
        summary: "This machine's doctors (a technician); a doctor sees only themself",
        querystring: appListQuerySchema,
        response: { 200: appDoctorListResponseSchema },
        security: deviceAndSession,
      },
    },
    async (request) =>
      ok(await reads.doctors(requireDevice(request), requireAppUser(request), request.query)),
  );

  app.get(
    apiPaths.appPatients,
    {
      config: { access: 'app-user' },
      schema: {
        tags: ['device'],
        summary: "The signed-in doctor's patients on this machine",
        querystring: appListQuerySchema,
        response: { 200: appPatientListResponseSchema },
        security: deviceAndSession,
      },
    },
    async (request) =>
      ok(await reads.patients(requireDevice(request), requireAppUser(request), request.query)),
  );

  app.get(
    apiPaths.appTreatments,
    {
      config: { access: 'app-user' },
      schema: {
        tags: ['device'],
        summary:
          "The signed-in doctor's treatment records on this machine (patientId: the app's id of the patient)",
        querystring: appListQuerySchema,
        response: { 200: appTreatmentListResponseSchema },
        security: deviceAndSession,
      },
    },
    async (request) =>
      ok(await reads.treatments(requireDevice(request), requireAppUser(request), request.query)),
  );
};
