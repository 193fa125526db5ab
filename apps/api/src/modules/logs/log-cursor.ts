import { logMessages } from '@app/contract/logs';
import { BadRequestError } from '#api/lib/errors.ts';

type Cursor = { at: Date; id: number };

/** The last row of a page as an opaque token: milliseconds and id (timestamps keep milliseconds only). */
export const encodeCursor = (row: { createdAt: Date; id: number }) =>
  Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString('base64url');

/** The row a token names; a token we did not make is a 400. */
export function decodeCursor(token: string): Cursor {
  const match = /^(\d{1,15})\.(\d{1,18})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match) throw new BadRequestError(logMessages.invalidCursor);
  return { at: new Date(Number(match[1])), id: Number(match[2]) };
}
