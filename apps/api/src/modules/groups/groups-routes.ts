import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bulkBodyBytes } from '@app/contract/bulk-actions';
import { envelope } from '@app/contract/envelope';
import {
  createGroupBodySchema,
  groupIdParamSchema,
  groupListQuerySchema,
  groupListResponseSchema,
  groupMembersBodySchema,
  groupMembersResponseSchema,
  groupMessages,
  groupPaths,
  groupResponseSchema,
  updateGroupBodySchema,
} from '@app/contract/groups';
import { z } from 'zod';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import type { GroupsService } from './groups-service.ts';

/* Machine groups in the console (decision 077): seeing them is seeing the machines. */
export const groupsRoutes: FastifyPluginAsyncZod<{ groups: GroupsService }> = async (app, { groups }) => {
  const manage = { access: 'admin', permission: 'groups.manage' } as const;

  app.get(
    groupPaths.groups,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['groups'],
        summary: 'Machine groups, by name, each with its machines counted now',
        querystring: groupListQuerySchema,
        response: { 200: groupListResponseSchema },
      },
    },
    async function listGroups(request) {
      const { page, limit, search } = request.query;
      return ok(await groups.list(page, limit, search));
    },
  );

  app.post(
    groupPaths.groups,
    {
      config: manage,
      schema: {
        tags: ['groups'],
        summary: 'Create a group: static (machines added to it) or dynamic (Device Management filters)',
        body: createGroupBodySchema,
        response: { 201: groupResponseSchema },
      },
    },
    async function createGroup(request, reply) {
      reply.code(201);
      return ok(await groups.create(request.body, historyActorOf(request)), groupMessages.created);
    },
  );

  app.get(
    groupPaths.group(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['groups'],
        summary: 'One group, with its machines counted now',
        params: groupIdParamSchema,
        response: { 200: groupResponseSchema },
      },
    },
    async function getGroup(request) {
      return ok(await groups.get(request.params.id));
    },
  );

  app.put(
    groupPaths.group(':id'),
    {
      config: manage,
      schema: {
        tags: ['groups'],
        summary: "Rename a group, or change a dynamic group's filters",
        params: groupIdParamSchema,
        body: updateGroupBodySchema,
        response: { 200: groupResponseSchema },
      },
    },
    async function updateGroup(request) {
      return ok(
        await groups.update(request.params.id, request.body, historyActorOf(request)),
        groupMessages.updated,
      );
    },
  );

  app.delete(
    groupPaths.group(':id'),
    {
      config: manage,
      schema: {
        tags: ['groups'],
        summary: 'Delete a group (its machines stay as they are)',
        params: groupIdParamSchema,
        response: { 200: envelope(z.null()) },
      },
    },
    async function deleteGroup(request) {
      await groups.remove(request.params.id, historyActorOf(request));
      return ok(null, groupMessages.deleted);
    },
  );

  for (const [path, change, said, summary] of [
    [
      groupPaths.members(':id'),
      groups.addMembers,
      groupMessages.membersAdded,
      'Add machines to a static group: picked, or all matching',
    ],
    [
      groupPaths.removeMembers(':id'),
      groups.removeMembers,
      groupMessages.membersRemoved,
      'Remove machines from a static group',
    ],
  ] as const)
    app.post(
      path,
      {
        config: manage,
        bodyLimit: bulkBodyBytes,
        schema: {
          tags: ['groups'],
          summary,
          params: groupIdParamSchema,
          body: groupMembersBodySchema,
          response: { 200: groupMembersResponseSchema },
        },
      },
      async function changeMembers(request) {
        const result = await change(request.params.id, request.body, historyActorOf(request));
        return ok(result, said(result.changed));
      },
    );
};
