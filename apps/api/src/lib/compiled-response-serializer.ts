import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * A route's response serializer compiled once from its zod schema (as JSON Schema) by
 * fast-json-stringify, for the hottest routes whose answers the handler builds from fixed fields.
 * zod's serializer parses every answer and then runs JSON.stringify; this writes the declared fields
 * straight out. The zod schema stays the contract (docs, client, tests): fields it does not declare
 * are left out as zod would, and a required field missing throws, so the answer is a 500, not a
 * short body. Set per route: `serializerCompiler: compiledResponseSerializer` (decision 046).
 */
export function compiledResponseSerializer({ schema }: { schema: unknown }) {
  const jsonSchema = z.toJSONSchema(schema as z.ZodType, { io: 'output', target: 'draft-7' });
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
}
