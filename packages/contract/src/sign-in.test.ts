import { describe, expect, it } from 'vitest';
import { loginBodySchema } from './sign-in.ts';

// Only the zod/mini file is imported here, as on the web's sign-in screen: every message must be
// the contract's own, not one from a zod locale that full zod would have loaded.
const messages = (input: unknown) => {
  const result = loginBodySchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('sign-in schema on its own (zod/mini)', () => {
  it('gives the spec messages for missing, blank and malformed values', () => {
    expect(messages({})).toEqual([
      ['email', 'Email is required'],
      ['password', 'Password is required'],
    ]);
    expect(messages({ email: '   ', password: '' })).toEqual([
      ['email', 'Email is required'],
      ['password', 'Password is required'],
    ]);
    expect(messages({ email: 'not-an-email', password: 'x' })).toEqual([['email', 'Invalid email format']]);
  });

  it('names the field for a wrong type and for a value that is too long', () => {
    expect(messages({ email: 42, password: false })).toEqual([
      ['email', 'email must be text'],
      ['password', 'password must be text'],
    ]);
    expect(messages({ email: `${'a'.repeat(250)}@b.co`, password: 'p'.repeat(257) })).toEqual([
      ['email', 'Email must be at most 254 characters'],
      ['password', 'Password must be at most 256 characters'],
    ]);
  });

  it('trims the email and keeps the password as typed', () => {
    expect(loginBodySchema.parse({ email: ' admin@example.com ', password: ' secret ' })).toEqual({
      email: 'admin@example.com',
      password: ' secret ',
    });
  });
});
