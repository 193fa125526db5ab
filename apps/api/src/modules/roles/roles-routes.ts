import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths } from '@app/contract/paths';
import {
  roleBodySchema,
  roleDeleteResponseSchema,
  roleExportQuerySchema,
  roleIdParamSchema,
  roleListQuerySchema,
  roleListResponseSchema,
  roleMessages,
  roleResponseSchema,
  type RoleBody,
} from '@app/contract/roles';
import { csvExportRoute } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { RolesService } from './roles-service.ts';

const byId = apiPaths.role(':id');
const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

export const rolesRoutes: FastifyPluginAsyncZod<{ roles: RolesService }> = async (app, { roles }) => {
  // As the list, every admin may read it (the role names are no secret among admins).
  csvExportRoute(app, {
    path: apiPaths.rolesExport,
    permission: 'any-admin',
    tag: 'roles',
    summary: 'Roles as a CSV file: every role the search matches, in the list order, streamed',
    query: roleExportQuerySchema,
    list: 'roles',
    csv: (query, counted) => roles.exportCsv(query, counted),
  });
  app.get(
    apiPaths.rolesAll,
    {
      config: { access: 'admin', permission: 'any-admin' },
      schema: {
        tags: ['roles'],
        summary: 'Roles (page/limit or currentPage/pageSize; without either, every role for a dropdown)',
        querystring: roleListQuerySchema,
        response: { 200: roleListResponseSchema },
      },
    },
    async function listRoles(request) {
      return ok(await roles.list(request.query));
    },
  );

  app.post(
    apiPaths.roles,
    {
      config: {
        access: 'admin',
        permission: 'roles.manage',
        // Only permissions the admin holds (decision 063).
        authorize: (request) => roles.assertMayChange(requireAuth(request), request.body as RoleBody),
      },
      schema: {
        tags: ['roles'],
        summary: 'Create a role (with only permissions your own role carries)',
        body: roleBodySchema,
        response: { 201: roleResponseSchema },
      },
    },
    async function createRole(request, reply) {
      const role = await roles.create(request.body, historyActorOf(request));
      return reply.code(201).send(ok(role, roleMessages.created, 201));
    },
  );

  app.get(
    byId,
    {
      config: { access: 'admin', permission: 'any-admin' },
      schema: {
        tags: ['roles'],
        summary: 'One role',
        params: roleIdParamSchema,
        response: { 200: roleResponseSchema },
      },
    },
    async function getRole(request) {
      return ok(await roles.get(request.params.id));
    },
  );

  app.put(
    byId,
    {
      config: {
        access: 'admin',
        permission: 'roles.manage',
        // Not one's own role, nothing beyond one's own permissions (decision 063), before any step-up.
        authorize: (request) =>
          roles.assertMayChange(requireAuth(request), request.body as RoleBody, idOf(request)),
        // Changing what the holders may do (type or permissions) needs a fresh step-up; a rename does not.
        stepUp: (request) => roles.changesAccess(idOf(request), request.body as RoleBody),
      },
      schema: {
        tags: ['roles'],
        summary:
          'Update a role (a change of type or permissions needs a step-up, and only permissions your own role carries; never your own role)',
        params: roleIdParamSchema,
        body: roleBodySchema,
        response: { 200: roleResponseSchema },
      },
    },
    async function updateRole(request) {
      return ok(
        await roles.update(request.params.id, request.body, historyActorOf(request)),
        roleMessages.updated,
      );
    },
  );

  app.delete(
    byId,
    {
      config: {
        access: 'admin',
        permission: 'roles.manage',
        // A role beyond the admin's own permissions is not theirs to remove (decision 063).
        authorize: (request) => roles.assertMayRemove(requireAuth(request), idOf(request)),
        stepUp: true,
      },
      schema: {
        tags: ['roles'],
        summary: 'Delete a role no user holds (needs a step-up)',
        params: roleIdParamSchema,
        response: { 200: roleDeleteResponseSchema },
      },
    },
    async function deleteRole(request) {
      await roles.remove(request.params.id, historyActorOf(request));
      return ok(null, roleMessages.deleted);
    },
  );
};
