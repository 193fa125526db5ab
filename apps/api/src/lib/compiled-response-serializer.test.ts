import { describe, expect, it } from 'vitest';
import { heartbeatResponseSchema } from '@app/contract/device-api';
import { compiledResponseSerializer } from './compiled-response-serializer.ts';

describe('compiledResponseSerializer', () => {
  const serialize = compiledResponseSerializer({ schema: heartbeatResponseSchema });
  const answer = {
    code: 200,
    msg: 'OK',
    data: { serverTime: '2026-11-24T20:00:00.000Z', nextHeartbeatSeconds: 300 },
  };

  it('writes an answer the zod schema reads back unchanged', () => {
    const body = serialize(answer);
    expect(heartbeatResponseSchema.parse(JSON.parse(body))).toEqual(answer);
    expect(JSON.parse(body)).toEqual(answer);
  });

  it('leaves out fields the schema does not declare, as zod does', () => {
    const body = serialize({ ...answer, secret: 'x', data: { ...answer.data, passwordHash: 'y' } });
    expect(JSON.parse(body)).toEqual(answer);
    expect(body).not.toContain('passwordHash');
    expect(body).not.toContain('secret');
  });

  it('refuses an answer missing a required field rather than send a short body', () => {
    expect(() => serialize({ ...answer, data: { nextHeartbeatSeconds: 300 } })).toThrow(/serverTime/);
  });
});
