import type { z } from 'zod';
import type { loginResponseSchema, loginSessionSchema } from '@app/contract/auth';
import type { LoginBody } from '@app/contract/sign-in';
import { apiPaths } from '@app/contract/paths';
import { apiClient } from '#web/lib/api-client.ts';

/** A session, or (two-step sign-in) `{ mfa, mfaToken }`: the code or the enrolment step is due. */
export type SignInResult = z.infer<typeof loginResponseSchema>['data'];
export type SignInSession = z.infer<typeof loginSessionSchema>;

/** POST login without credentials; a 401 here is a wrong password, not an expired session. */
export async function signIn(body: LoginBody): Promise<SignInResult> {
  const response = await apiClient.post<SignInResult>(apiPaths.login, body, { anonymous: true });
  return response.data;
}
