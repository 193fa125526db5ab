import argon2 from 'argon2';

/** argon2id's cost: memory in KiB and passes. A stored hash names its own, so any cost verifies. */
export type PasswordHashCost = { memoryCost: number; timeCost: number };

// OWASP's argon2id minimum (19 MiB, 2 passes) keeps sign-in fast on 2 cores under load.
export const owaspMinimum: PasswordHashCost = { memoryCost: 19456, timeCost: 2 };
/** The least argon2id accepts (8 KiB, 1 pass, 0.1 ms): for test apps only, which sign in thousands of times. */
export const testOnlyCost: PasswordHashCost = { memoryCost: 8, timeCost: 1 };

let cost = owaspMinimum;

/**
 * The cost of the hashes made from now on in this process. Only the test apps call it
 * (test/test-app.ts, with testOnlyCost); everything else hashes at OWASP's minimum.
 */
export function setPasswordHashCost(next: PasswordHashCost) {
  if (next.memoryCost === cost.memoryCost && next.timeCost === cost.timeCost) return;
  cost = next;
  // The unknown-account check must cost what a real one does.
  dummyHash = undefined;
}

export const hashPassword = (password: string) =>
  argon2.hash(password, { type: argon2.argon2id, ...cost, parallelism: 1 });

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** A real hash of nothing, checked when the email is unknown, so both answers take as long. */
let dummyHash: Promise<string> | undefined;
export const burnPasswordCheck = async (password: string) => {
  dummyHash ??= hashPassword('not-a-real-account-password');
  await verifyPassword(await dummyHash, password);
};
