import { createTestApp, type TestApp } from './test-app.ts';

/** A fresh app and its admin's token, for a test file's beforeAll. */
export async function signedInApp(env?: Record<string, string>): Promise<{ t: TestApp; token: string }> {
  const t = await createTestApp(env);
  return { t, token: await t.login() };
}
