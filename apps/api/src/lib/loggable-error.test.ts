import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { users } from '../db/schema/users.ts';
import { createTestApp } from '../test/test-app.ts';
import { loggableError, loggableMessage } from './loggable-error.ts';

/*
 * A database error in the server log names the statement and the error, never the values bound to
 * it (issue 18, item 5): on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */

const personal = 'Luca Neri luca.neri@example.com';

describe('database errors in the server log', () => {
  it('keep the message and the SQLSTATE code but not the bound values, through the app logger', async () => {
    const t = await createTestApp();
    const lines: string[] = [];
    const app = await buildApp({
      config: t.config,
      database: t.database,
      logStream: { write: (l) => void lines.push(l) },
    });
    try {
      // A uuid column compared with personal text: the database refuses it, quoting the value.
      const error = await t.database.db
        .select()
        .from(users)
        .where(eq(users.id, personal))
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(error).toBeInstanceOf(Error);
      // The raw error does hold the value (this is what used to be logged).
      expect(JSON.stringify({ m: (error as Error).message, c: String((error as Error).cause) })).toContain(
        'luca.neri',
      );
      app.log.error({ err: error }, 'unhandled error');
      app.log.warn({ err: (error as Error).message }, 'reconcile failed');
      const logged = lines.join('');
      expect(logged).toContain('Failed query');
      expect(logged).toContain('22P02');
      expect(logged).not.toContain('luca.neri');
      expect(logged).not.toContain('Neri');
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('cuts drizzle params and a trailing quoted value, and leaves other messages alone', () => {
    expect(loggableMessage('Failed query: select 1 where a = $1\nparams: secret@example.com,x')).toBe(
      'Failed query: select 1 where a = $1',
    );
    expect(loggableMessage('invalid input syntax for type uuid: "Luca Neri"')).toBe(
      'invalid input syntax for type uuid: [redacted]',
    );
    expect(loggableMessage('connect ECONNREFUSED 127.0.0.1:5432')).toBe(
      'connect ECONNREFUSED 127.0.0.1:5432',
    );
    const err = Object.assign(new Error('Failed query: x\nparams: a@b.co'), {
      params: ['a@b.co'],
      detail: 'Key (email)=(a@b.co) already exists.',
      code: '23505',
    });
    expect(JSON.stringify(loggableError(err))).not.toContain('a@b.co');
    expect(loggableError(err)).toMatchObject({
      type: 'Error',
      message: 'Failed query: x',
      errorCode: '23505',
    });
  });
});
