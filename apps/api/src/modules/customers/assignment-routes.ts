import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bulkBodyBytes, bulkLimit, bulkResponseSchema, bulkSummary } from '@app/contract/bulk-actions';
import { customerMessages, customerPaths } from '@app/contract/customers';
import { deviceIdParamSchema } from '@app/contract/devices';
import {
  assignmentBodySchema,
  assignmentListQuerySchema,
  assignmentListResponseSchema,
  assignmentResponseSchema,
  bulkAssignBodySchema,
  returnBodySchema,
  returnResponseSchema,
} from '@app/contract/machine-assignments';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { AssignmentsService } from './assignments-service.ts';
import type { BulkAssignOutcome } from './bulk-assign.ts';
import type { BulkAssignBody } from '@app/contract/machine-assignments';

const tags = ['customers'];
const manage = { access: 'admin', permission: 'customers.manage' } as const;

/**
 * A machine's holder over time (issue 39 item 2): assign (or move) it, return it, read its periods,
 * and Device Management's bulk assignment. Each write's audit row names the machine (its route's
 * :id) and carries the customer it went to (or came back from).
 */
export const assignmentRoutes: FastifyPluginAsyncZod<{
  assignments: AssignmentsService;
  bulkAssign: (body: BulkAssignBody, actorId: string | null) => Promise<BulkAssignOutcome>;
}> = async (app, { assignments, bulkAssign }) => {
  app.post(
    customerPaths.machineAssignment(':id'),
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Assign the machine to a customer from a moment (default now; in the past, but not before its current period began nor in the future): the open period closes then, records made since follow the new holder',
        params: deviceIdParamSchema,
        body: assignmentBodySchema,
        response: { 200: assignmentResponseSchema },
      },
    },
    async function assignMachine(request) {
      const { assignment, device } = await assignments.assign(
        request.params.id,
        request.body,
        requireAuth(request).userId,
      );
      request.auditMachineNumber = device.machineNumber;
      request.auditCustomerId = assignment.customerId;
      return ok(assignment, customerMessages.assigned);
    },
  );

  app.post(
    customerPaths.machineReturn(':id'),
    {
      config: manage,
      schema: {
        tags,
        summary: 'Return the machine to the supplier from a moment (default now): its open period closes',
        params: deviceIdParamSchema,
        body: returnBodySchema,
        response: { 200: returnResponseSchema },
      },
    },
    async function returnMachine(request) {
      const { assignment, device } = await assignments.returnToSupplier(request.params.id, request.body);
      request.auditMachineNumber = device.machineNumber;
      request.auditCustomerId = assignment.customerId;
      return ok(assignment, customerMessages.returned);
    },
  );

  app.get(
    customerPaths.machineAssignments(':id'),
    {
      config: { access: 'admin', permission: 'customers.view' },
      schema: {
        tags,
        summary: 'Who held the machine when: its periods, newest first',
        params: deviceIdParamSchema,
        querystring: assignmentListQuerySchema,
        response: { 200: assignmentListResponseSchema },
      },
    },
    async function machineAssignments(request) {
      const { page, limit } = request.query;
      return ok(await assignments.history({ deviceId: request.params.id }, page, limit));
    },
  );

  app.post(
    customerPaths.machineBulkAssign,
    {
      // A bulk action asks for the password again, as Activate / Deactivate does (decision 055).
      config: { ...manage, stepUp: true },
      bodyLimit: bulkBodyBytes,
      schema: {
        tags,
        summary: `Assign the machines picked (ids) or every machine the device list's filters match (allMatching) to one customer, at most ${bulkLimit.toLocaleString('en-US')}; answered per machine`,
        body: bulkAssignBodySchema,
        response: { 200: bulkResponseSchema },
      },
    },
    async function bulkAssignMachines(request) {
      const { doneIds, ...answer } = await bulkAssign(request.body, requireAuth(request).userId);
      request.auditFields = ['customerId'];
      request.auditActedIds = doneIds;
      request.auditCustomerId = request.body.customerId;
      return ok(answer, bulkSummary(answer));
    },
  );
};
