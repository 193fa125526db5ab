import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountMessages,
  profileImageMaxBytes,
  profileUpdateFieldsSchema,
  profileUpdateResponseSchema,
} from '@app/contract/account';
import { profileResponseSchema } from '@app/contract/auth';
import { inputMessages } from '@app/contract/fields';
import { apiPaths } from '@app/contract/paths';
import { ok } from '#api/lib/envelope.ts';
import { AppError, BadRequestError, NotFoundError, PayloadTooLargeError } from '#api/lib/errors.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { requireAuth } from '#api/lib/request-context.ts';
import { validationMessage } from '#api/lib/validation-message.ts';
import type { ProfileService } from './profile-service.ts';

/** Reads the multipart form: its text fields and, at most 2 MB, the `file` part. */
async function readProfileForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, unknown>; image?: Buffer }> {
  if (!request.isMultipart()) {
    const body = request.body;
    return { fields: body && typeof body === 'object' ? (body as Record<string, unknown>) : {} };
  }
  const fields: Record<string, unknown> = {};
  let image: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: profileImageMaxBytes, files: 1 } })) {
      // Strict input (decision 020): a part the form does not have is refused, naming it.
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new BadRequestError(inputMessages.unknownFields([part.fieldname]));
        }
        const bytes = await part.toBuffer();
        // A form with no file chosen still sends an empty file part.
        if (bytes.length > 0) image = bytes;
      } else if (Object.hasOwn(profileUpdateFieldsSchema.shape, part.fieldname)) {
        fields[part.fieldname] = part.value;
      } else {
        throw new BadRequestError(inputMessages.unknownFields([part.fieldname]));
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError(accountMessages.imageTooLarge);
    const status = (error as { statusCode?: number }).statusCode;
    if (error instanceof AppError || (status && status < 500)) throw error;
    // A truncated or malformed body is the client's problem, not a 500.
    throw new BadRequestError(accountMessages.formUnreadable);
  }
  return { fields, image };
}

export const profileRoutes: FastifyPluginAsyncZod<{ profiles: ProfileService }> = async (
  app,
  { profiles },
) => {
  app.get(
    apiPaths.profile,
    {
      config: { access: 'admin', permission: 'any-admin', backgroundRead: true },
      schema: { tags: ['profile'], summary: 'The signed-in admin', response: { 200: profileResponseSchema } },
    },
    async (request) => {
      const profile = await profiles.findById(requireAuth(request).userId);
      if (!profile) throw new NotFoundError('User not found');
      return ok(profile);
    },
  );

  app.put(
    apiPaths.profile,
    {
      config: { access: 'admin', permission: 'any-admin' },
      schema: {
        tags: ['profile'],
        summary:
          'Update the signed-in admin (multipart: firstName, lastName, userName, phone, file; email is read-only)',
        description:
          'multipart/form-data (or JSON without the file). `file` must be a PNG or JPEG by content (415 otherwise), at most 2 MB (413) and 10000 × 10000 pixels / 25 megapixels (413); it is decoded and encoded anew (metadata and anything hidden in the file are gone), scaled to at most 1024 px. An `email` field is ignored.',
        consumes: ['multipart/form-data', 'application/json'],
        response: { 200: profileUpdateResponseSchema },
      },
    },
    async (request) => {
      const { userId } = requireAuth(request);
      const { fields, image } = await readProfileForm(request);
      const parsed = profileUpdateFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
        throw new BadRequestError(validationMessage(issues), { errors: issues });
      }
      return ok(
        await profiles.update(userId, parsed.data, image, historyActorOf(request)),
        accountMessages.profileUpdated,
      );
    },
  );

  app.get(
    apiPaths.profileImage(':name'),
    {
      // An <img> cannot send a bearer token; the name is 128 random bits, as good as a capability.
      config: { access: 'public' },
      schema: {
        tags: ['profile'],
        summary: 'A profile image',
        params: z.object({ name: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const found = await profiles.image(request.params.name);
      if (!found) throw new NotFoundError(accountMessages.imageNotFound);
      return (
        reply
          .type(found.contentType)
          .header('content-length', String(found.size))
          // A user's file: never rendered as a page of ours, never sniffed into another type (an <img> still shows it).
          .header(
            'content-disposition',
            `attachment; filename="profile.${found.contentType === 'image/png' ? 'png' : 'jpg'}"`,
          )
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(found.stream)
      );
    },
  );
};
