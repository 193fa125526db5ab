import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiPaths } from '@app/contract/paths';
import {
  colorModeBodySchema,
  colorModeResponseSchema,
  listParamSchema,
  listPreferencesResponseSchema,
  listPreferencesSchema,
  preferenceMessages,
  preferencesResponseSchema,
  savedViewBodySchema,
  savedViewDeleteResponseSchema,
  savedViewIdParamSchema,
  savedViewListQuerySchema,
  savedViewListResponseSchema,
  savedViewResponseSchema,
} from '@app/contract/preferences';
import { ok } from '#api/lib/envelope.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import type { PreferencesService } from './preferences-service.ts';

/** The signed-in admin's own preferences and views: every admin has them, whatever the role. */
export const preferencesRoutes: FastifyPluginAsyncZod<{ preferences: PreferencesService }> = async (
  app,
  { preferences },
) => {
  const mine = { access: 'admin', permission: 'any-admin' } as const;

  app.get(
    apiPaths.preferences,
    {
      config: { ...mine, backgroundRead: true },
      schema: {
        tags: ['preferences'],
        summary: "The signed-in admin's list preferences, by list, and colour mode",
        response: { 200: preferencesResponseSchema },
      },
    },
    async (request) => ok(await preferences.all(requireAuth(request).userId)),
  );

  app.put(
    apiPaths.listPreferences(':list'),
    {
      config: mine,
      schema: {
        tags: ['preferences'],
        summary:
          "Save one list's preferences: columns shown in order, page size, sort (null: the list's default)",
        params: listParamSchema,
        body: listPreferencesSchema,
        response: { 200: listPreferencesResponseSchema },
      },
    },
    async (request) =>
      ok(
        await preferences.saveList(requireAuth(request).userId, request.params.list, request.body),
        preferenceMessages.saved,
      ),
  );

  app.put(
    apiPaths.colorMode,
    {
      config: mine,
      schema: {
        tags: ['preferences'],
        summary: "Save the console's colour mode: system (follows the browser), light or dark",
        body: colorModeBodySchema,
        response: { 200: colorModeResponseSchema },
      },
    },
    async (request) =>
      ok(
        await preferences.saveColorMode(requireAuth(request).userId, request.body.colorMode),
        preferenceMessages.saved,
      ),
  );

  app.get(
    apiPaths.savedViews,
    {
      config: mine,
      schema: {
        tags: ['preferences'],
        summary: "A list's saved views: the admin's own and every admin's shared ones",
        querystring: savedViewListQuerySchema,
        response: { 200: savedViewListResponseSchema },
      },
    },
    async (request) =>
      ok({ views: await preferences.views(requireAuth(request).userId, request.query.list) }),
  );

  app.post(
    apiPaths.savedViews,
    {
      config: mine,
      schema: {
        tags: ['preferences'],
        summary: 'Save a named view of a list (its URL query), private or shared with every admin',
        body: savedViewBodySchema,
        response: { 201: savedViewResponseSchema },
      },
    },
    async (request, reply) => {
      const view = await preferences.saveView(requireAuth(request).userId, request.body);
      return reply.code(201).send(ok(view, preferenceMessages.viewSaved, 201));
    },
  );

  app.delete(
    apiPaths.savedView(':id'),
    {
      config: mine,
      schema: {
        tags: ['preferences'],
        summary: 'Delete a saved view (only its owner)',
        params: savedViewIdParamSchema,
        response: { 200: savedViewDeleteResponseSchema },
      },
    },
    async (request) =>
      ok(
        await preferences.deleteView(requireAuth(request).userId, request.params.id),
        preferenceMessages.viewDeleted,
      ),
  );
};
