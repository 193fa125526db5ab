import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { profileResponseSchema } from '@app/contract/auth';
import { apiPaths } from '@app/contract/paths';
import { ok } from '../../lib/envelope.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { requireAuth } from '../../lib/request-context.ts';
import type { ProfileService } from './profile-service.ts';

export const profileRoutes: FastifyPluginAsyncZod<{ profiles: ProfileService }> = async (app, { profiles }) => {
  app.get(
    apiPaths.profile,
    { schema: { tags: ['profile'], summary: 'The signed-in admin', response: { 200: profileResponseSchema } } },
    async (request) => {
      const profile = await profiles.findById(requireAuth(request).userId);
      if (!profile) throw new NotFoundError('User not found');
      return ok(profile);
    },
  );
};
