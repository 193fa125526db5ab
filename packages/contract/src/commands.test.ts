import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  anyCommandParams,
  commandKinds,
  commandMessages,
  commandParamSchemas,
  sendCommandBodySchema,
} from './commands.ts';

const keysOf = (schema: z.ZodType): string[] => {
  const inner = schema instanceof z.ZodDefault ? schema.def.innerType : schema;
  return Object.keys((inner as z.ZodObject).shape);
};

describe('command parameters', () => {
  it('lets a body carry every parameter some kind takes, and nothing else', () => {
    const every = new Set(commandKinds.flatMap((kind) => keysOf(commandParamSchemas[kind])));
    expect(Object.keys(anyCommandParams.shape).sort()).toEqual([...every].sort());
  });

  it("checks the parameters against the kind's own schema, naming params.<key>", () => {
    const issues = (body: unknown) =>
      sendCommandBodySchema.safeParse(body).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ kind: 'sync-now', params: { reason: 'x' } })).toEqual(['params: Unknown field: reason']);
    expect(issues({ kind: 'safety-hold' })).toEqual([`params.reason: ${commandMessages.reasonRequired}`]);
    expect(issues({ kind: 'upload-diagnostics', params: { minutes: 1441 } })).toEqual([
      `params.minutes: ${commandMessages.minutesInvalid}`,
    ]);
    expect(issues({ kind: 'upload-diagnostics' })).toBeUndefined();
  });
});
