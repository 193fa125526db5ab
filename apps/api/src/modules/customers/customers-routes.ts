import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  customerActivityListResponseSchema,
  customerCreateBodySchema,
  customerDeleteResponseSchema,
  customerExportQuerySchema,
  customerFacetsQuerySchema,
  customerFacetsResponseSchema,
  customerIdParamSchema,
  customerListQuerySchema,
  customerListResponseSchema,
  customerMachineListResponseSchema,
  customerMessages,
  customerPaths,
  customerPieceQuerySchema,
  customerResponseSchema,
  customerSubscriptionListResponseSchema,
  customerUpdateBodySchema,
} from '@app/contract/customers';
import { assignmentListResponseSchema } from '@app/contract/machine-assignments';
import { csvExportRoute } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import type { AssignmentsService } from './assignments-service.ts';
import type { CustomerPieces } from './customer-pieces.ts';
import type { CustomersService } from './customers-service.ts';

const tags = ['customers'];
const byId = customerPaths.customer(':id');
const view = { access: 'admin', permission: 'customers.view' } as const;
const manage = { access: 'admin', permission: 'customers.manage' } as const;

/** Customers (clinics): the list, its facets and export, one customer and its detail page's pieces. */
export const customersRoutes: FastifyPluginAsyncZod<{
  customers: CustomersService;
  pieces: CustomerPieces;
  assignments: AssignmentsService;
}> = async (app, { customers, pieces, assignments }) => {
  csvExportRoute(app, {
    path: customerPaths.export,
    permission: 'customers.view',
    tag: 'customers',
    summary: 'Customers as a CSV file: every customer the filters match, in the list order, streamed',
    query: customerExportQuerySchema,
    list: 'customers',
    csv: (query, counted) => customers.exportCsv(query, counted),
  });

  app.get(
    customerPaths.list,
    {
      config: view,
      schema: {
        tags,
        summary: 'Customers: search (name, country, billing email, tax id), country, sort, page',
        querystring: customerListQuerySchema,
        response: { 200: customerListResponseSchema },
      },
    },
    async function listCustomers(request) {
      return ok(await customers.list(request.query));
    },
  );

  app.get(
    customerPaths.facets,
    {
      config: view,
      schema: {
        tags,
        summary: "The customer list's countries, each with its count (within the search when given)",
        querystring: customerFacetsQuerySchema,
        response: { 200: customerFacetsResponseSchema },
      },
    },
    async function customerFacets(request) {
      return ok(await customers.facets(request.query));
    },
  );

  app.post(
    customerPaths.list,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Add a customer (name and country required; the name unique in any case)',
        body: customerCreateBodySchema,
        response: { 201: customerResponseSchema },
      },
    },
    async function createCustomer(request, reply) {
      const customer = await customers.create(request.body);
      request.auditCustomerId = customer._id;
      return reply.code(201).send(ok(customer, customerMessages.created, 201));
    },
  );

  app.get(
    byId,
    {
      config: view,
      schema: {
        tags,
        summary: 'One customer',
        params: customerIdParamSchema,
        response: { 200: customerResponseSchema },
      },
    },
    async function getCustomer(request) {
      return ok(await customers.get(request.params.id));
    },
  );

  app.put(
    byId,
    {
      config: manage,
      schema: {
        tags,
        summary: "Change a customer's details: the fields sent change, the others stay",
        params: customerIdParamSchema,
        body: customerUpdateBodySchema,
        response: { 200: customerResponseSchema },
      },
    },
    async function updateCustomer(request) {
      request.auditCustomerId = request.params.id;
      return ok(await customers.update(request.params.id, request.body), customerMessages.updated);
    },
  );

  app.delete(
    byId,
    {
      // Deleting asks for the password again, as every delete does (decision 046).
      config: { ...manage, stepUp: true },
      schema: {
        tags,
        summary: 'Delete a customer that holds no machine, has no subscription and never held a machine',
        params: customerIdParamSchema,
        response: { 200: customerDeleteResponseSchema },
      },
    },
    async function deleteCustomer(request) {
      await customers.remove(request.params.id);
      request.auditCustomerId = request.params.id;
      return ok(null, customerMessages.deleted);
    },
  );

  const piece = <R>(
    path: string,
    summary: string,
    response: R,
    read: (id: string, page: { page: number; limit: number }) => Promise<unknown>,
  ) =>
    app.get(
      path,
      {
        config: view,
        schema: {
          tags,
          summary,
          params: customerIdParamSchema,
          querystring: customerPieceQuerySchema,
          response: { 200: response as typeof customerMachineListResponseSchema },
        },
      },
      async (request) => {
        await customers.find(request.params.id);
        return ok((await read(request.params.id, request.query)) as never);
      },
    );

  piece(
    customerPaths.machines(':id'),
    'The machines the customer holds now, with their licences and since when',
    customerMachineListResponseSchema,
    (id, page) => pieces.machines(id, page),
  );
  piece(
    customerPaths.subscriptions(':id'),
    "The customer's subscriptions, newest first",
    customerSubscriptionListResponseSchema,
    (id, page) => pieces.subscriptions(id, page),
  );
  piece(
    customerPaths.assignments(':id'),
    'Every period in which the customer held a machine, newest first',
    assignmentListResponseSchema,
    (id, page) => assignments.history({ customerId: id }, page.page, page.limit),
  );
  piece(
    customerPaths.activity(':id'),
    "The audit trail's rows about the customer, newest first (counted up to 10,000)",
    customerActivityListResponseSchema,
    (id, page) => pieces.activity(id, page),
  );
};
