import { defineModule } from '#api/app-module.ts';
import { createLicenceKeys, licenceKeysChannel, type LicenceKeys } from './licence-keys.ts';
import { licenceTokensRoutes } from './licence-tokens-routes.ts';
import { createLicenceTokens } from './licence-tokens-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The licences' signing keys: tests rotate them (the operator's command is licence:rotate-key). */
    licenceKeys: LicenceKeys;
  }
}

/**
 * The licence a machine holds and obeys offline (decision 068, "The token"; docs/device-api.md):
 * signed per machine with Ed25519 keys this instance keeps in memory, told of a rotation by the
 * database's notices.
 */
export const licenceTokensModule = defineModule({
  name: 'licence-tokens',
  async register(app, { db, database, config, now, log, licenceVersions, settingsVersions }) {
    const keys = createLicenceKeys({
      db,
      serverSecret: config.jwtSecret,
      now,
      offlineDays: config.licences.offlineDays,
      log,
    });
    const feed = await database.listen(licenceKeysChannel, keys.feed);
    app.addHook('onClose', () => feed.close());
    app.decorate('licenceKeys', keys);
    const tokens = createLicenceTokens({
      licences: licenceVersions,
      settings: settingsVersions,
      keys,
      now,
      issuer: config.publicUrl,
      config: config.licences,
    });
    await app.register(licenceTokensRoutes, { keys, tokens });
  },
});
