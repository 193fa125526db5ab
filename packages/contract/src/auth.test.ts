import { describe, expect, it } from 'vitest';
import { loginBodySchema, signInMessages } from './auth.ts';

const firstMessage = (input: unknown, field: string) => {
  const result = loginBodySchema.safeParse(input);
  if (result.success) return undefined;
  return result.error.issues.find((issue) => issue.path[0] === field)?.message;
};

describe('sign-in schema', () => {
  it('asks for the email when it is missing or blank', () => {
    expect(firstMessage({ password: 'x' }, 'email')).toBe(signInMessages.emailRequired);
    expect(firstMessage({ email: '   ', password: 'x' }, 'email')).toBe('Email is required');
  });

  it('rejects an email that is not an address with the spec message', () => {
    expect(firstMessage({ email: 'not-an-email', password: 'x' }, 'email')).toBe('Invalid email format');
  });

  it('asks for the password when it is missing or empty', () => {
    expect(firstMessage({ email: 'a@b.co' }, 'password')).toBe('Password is required');
    expect(firstMessage({ email: 'a@b.co', password: '' }, 'password')).toBe('Password is required');
  });

  it('names the field when a value has the wrong type', () => {
    expect(firstMessage({ email: 42, password: 'x' }, 'email')).toBe('email must be text');
  });

  it('accepts a valid pair and trims the email', () => {
    expect(loginBodySchema.parse({ email: ' admin@example.com ', password: 'secret' })).toEqual({
      email: 'admin@example.com',
      password: 'secret',
    });
  });
});
