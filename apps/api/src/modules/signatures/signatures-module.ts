import { defineModule } from '#api/app-module.ts';

/**
 * Electronic signatures (issue 38 item 2, decision 083) have no routes of their own: a signed route
 * builds `createSignatureService({ db, mfa, now })` (signature-service.ts) in its module, takes
 * `signature` in its body and calls `sign` in its transaction; the record's answers carry its
 * signatures (`listFor`). The table is append-only (migration 0051).
 */
export const signaturesModule = defineModule({
  name: 'signatures',
  register: async () => {},
});
