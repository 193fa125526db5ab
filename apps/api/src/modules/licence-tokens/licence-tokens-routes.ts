import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appLicenceResponseSchema, licenceJwksSchema, licencePaths } from '@app/contract/licences';
import { ok } from '#api/lib/envelope.ts';
import { requireDevice } from '#api/lib/request-context.ts';
import type { LicenceKeys } from './licence-keys.ts';
import type { LicenceTokens } from './licence-tokens-service.ts';

/**
 * Keys change rarely and a machine that meets an unknown `kid` fetches them again: a few minutes in
 * a shared cache is safe, and a rotation's new key reaches every machine within them.
 */
const jwksCacheControl = 'public, max-age=300';

/** The machine's signed licence (its credential decides whose) and the public keys to verify it with. */
export const licenceTokensRoutes: FastifyPluginAsyncZod<{
  keys: LicenceKeys;
  tokens: LicenceTokens;
}> = async (app, { keys, tokens }) => {
  app.get(
    licencePaths.appLicence,
    {
      config: { access: 'device' },
      schema: {
        tags: ['device'],
        summary: "The machine's signed licence (verify it with the keys at /.well-known/jwks.json)",
        description:
          'A compact JWS (EdDSA, Ed25519; `kid` in its header) whose claims are the licence: `sub` is the ' +
          "machine's serial number, `state`, `locked` (refuse new treatments), `paidThrough`, `graceUntil`, " +
          '`ver` (the version the heartbeat answers) and `exp` (past it, without a newer licence, the ' +
          'machine refuses new treatments). Always the calling machine’s own: there is no parameter.',
        response: { 200: appLicenceResponseSchema },
        security: [{ device: [] }],
      },
    },
    async (request) => ok(await tokens.forDevice(requireDevice(request).deviceId)),
  );

  app.get(
    licencePaths.jwks,
    {
      config: { access: 'public' },
      schema: {
        tags: ['device'],
        summary: 'The public keys licences are signed with (JWKS, RFC 7517)',
        description:
          'The key that signs now and every retired key whose licences may still be valid. Not in the ' +
          'usual envelope: any JOSE library reads it as it is.',
        response: { 200: licenceJwksSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', jwksCacheControl);
      return keys.jwks();
    },
  );
};
