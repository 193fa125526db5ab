import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bulkBodyBytes, bulkLimit, bulkResponseSchema, bulkSummary } from '@app/contract/bulk-actions';
import { apiPaths } from '@app/contract/paths';
import {
  userBulkDeleteBodySchema,
  userCreateBodySchema,
  userDeleteResponseSchema,
  userExportQuerySchema,
  userIdParamSchema,
  userListQuerySchema,
  userListResponseSchema,
  userMessages,
  userResponseSchema,
  userUpdateBodySchema,
  type UserCreateBody,
  type UserUpdateBody,
} from '@app/contract/users';
import { csvExportRoute } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { UsersService } from './users-service.ts';

const byId = apiPaths.user(':id');
const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  csvExportRoute(app, {
    path: apiPaths.usersExport,
    permission: 'users.manage',
    tag: 'users',
    summary: 'User Management as a CSV file: every user the search matches, streamed',
    query: userExportQuerySchema,
    list: 'users',
    csv: (query, counted) => users.exportCsv(query, counted),
  });

  app.get(
    apiPaths.usersAll,
    {
      config: { access: 'admin', permission: 'users.manage' },
      schema: {
        tags: ['users'],
        summary: 'Users, newest first',
        querystring: userListQuerySchema,
        response: { 200: userListResponseSchema },
      },
    },
    async function listUsers(request) {
      return ok(await users.list(request.query));
    },
  );

  // docs/product.md §7.2 writes the create path with a trailing slash; both spellings are served.
  for (const url of [apiPaths.users, apiPaths.users.replace(/\/$/, '')]) {
    app.post(
      url,
      {
        config: {
          access: 'admin',
          permission: 'users.manage',
          // Only a role within the admin's own permissions (decision 063), before any step-up.
          authorize: (request) =>
            users.assertMayAssign(requireAuth(request), (request.body as UserCreateBody).roleId),
          // Creating a console admin needs a fresh step-up (decision 046).
          stepUp: (request) => users.touchesAdmin((request.body as UserCreateBody).roleId),
        },
        schema: {
          tags: ['users'],
          summary:
            'Create a user (the password is stored as an argon2id hash and never returned; an admin needs a step-up)',
          hide: url !== apiPaths.users,
          body: userCreateBodySchema,
          response: { 201: userResponseSchema },
        },
      },
      async function createUser(request, reply) {
        const user = await users.create(request.body, historyActorOf(request));
        return reply.code(201).send(ok(user, userMessages.created, 201));
      },
    );
  }

  app.post(
    apiPaths.usersBulkDelete,
    {
      // The single delete's permission; a step-up always, since "all matching" reaches thousands.
      config: { access: 'admin', permission: 'users.manage', stepUp: true },
      bodyLimit: bulkBodyBytes,
      schema: {
        tags: ['users'],
        summary: `Delete the users picked (ids) or every user the list's search matches (allMatching), at most ${bulkLimit.toLocaleString('en-US')}; answered per user (not yourself, not a protected user)`,
        body: userBulkDeleteBodySchema,
        response: { 200: bulkResponseSchema },
      },
    },
    async function bulkDeleteUsers(request) {
      const { doneIds, ...answer } = await users.bulkRemove(
        requireAuth(request),
        request.body,
        historyActorOf(request),
      );
      request.auditFields = [];
      request.auditActedIds = doneIds;
      return ok(answer, bulkSummary(answer));
    },
  );

  app.get(
    byId,
    {
      config: { access: 'admin', permission: 'users.manage' },
      schema: {
        tags: ['users'],
        summary: 'One user',
        params: userIdParamSchema,
        response: { 200: userResponseSchema },
      },
    },
    async function getUser(request) {
      return ok(await users.get(request.params.id));
    },
  );

  app.put(
    byId,
    {
      config: {
        access: 'admin',
        permission: 'users.manage',
        // Not one's own role, not a user or role beyond one's own permissions (decision 063).
        authorize: (request) =>
          users.assertMayAssign(requireAuth(request), (request.body as UserUpdateBody).roleId, idOf(request)),
        // Editing an admin, or making someone one, needs a fresh step-up (decision 046).
        stepUp: (request) => users.touchesAdmin((request.body as UserUpdateBody).roleId, idOf(request)),
      },
      schema: {
        tags: ['users'],
        summary:
          'Update a user (a password in the body is ignored; protected users cannot be edited; an admin needs a step-up)',
        params: userIdParamSchema,
        body: userUpdateBodySchema,
        response: { 200: userResponseSchema },
      },
    },
    async function updateUser(request) {
      return ok(
        await users.update(request.params.id, request.body, historyActorOf(request)),
        userMessages.updated,
      );
    },
  );

  app.delete(
    byId,
    {
      config: {
        access: 'admin',
        permission: 'users.manage',
        // Not yourself, not a protected user, nobody beyond your own permissions (decision 063).
        authorize: (request) => users.assertMayRemove(requireAuth(request), idOf(request)),
        // Deleting a console admin needs a fresh step-up, as editing one does (decision 046).
        stepUp: (request) => users.isConsoleAdmin(idOf(request)),
      },
      schema: {
        tags: ['users'],
        summary:
          'Delete a user and end their sessions (not yourself, not a protected user, nobody beyond your own permissions; an admin needs a step-up)',
        params: userIdParamSchema,
        response: { 200: userDeleteResponseSchema },
      },
    },
    async function deleteUser(request) {
      await users.remove(requireAuth(request), request.params.id, historyActorOf(request));
      return ok(null, userMessages.deleted);
    },
  );
};
