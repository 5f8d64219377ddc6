import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializer } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

type JsonSchema = { [key: string]: unknown };

/**
 * Response bodies are written by a serializer compiled from each route's response schema
 * (fast-json-stringify over the zod schema's JSON Schema) instead of zod checking every row on the way
 * out and `JSON.stringify` walking it again. Like zod's output it writes only the properties the schema
 * names. A schema that has no JSON Schema (a transform) keeps zod's serializer. Compiled on the first
 * answer of a route, so start-up and the test suite do not pay for routes nobody calls.
 */
export const compiledSerializer: FastifySerializerCompiler<unknown> = (routeSchema) => {
  const { schema } = routeSchema as { schema: unknown };
  let write: ((data: unknown) => string) | undefined;
  return (data) => {
    write ??= compile(schema, routeSchema);
    return write(data);
  };
};

const compiled = new WeakMap<object, (data: unknown) => string>();

function compile(schema: unknown, routeSchema: unknown): (data: unknown) => string {
  if (!(schema instanceof z.ZodType)) return zodFallback(routeSchema);
  const known = compiled.get(schema);
  if (known) return known;
  let write: (data: unknown) => string;
  try {
    const json = z.toJSONSchema(schema as ZodType, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }) as JsonSchema;
    write = fastJson(relaxed(json) as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
  } catch {
    write = zodFallback(routeSchema);
  }
  compiled.set(schema, write);
  return write;
}

const zodFallback = (routeSchema: unknown) =>
  zodSerializer(routeSchema as Parameters<typeof zodSerializer>[0]) as (data: unknown) => string;

/** `anyOf: [X, null]` (zod's nullable) as `type: [X, 'null']`, which is written without validating a branch. */
function orNull(node: JsonSchema): JsonSchema {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return node;
  const nullAt = branches.findIndex((b) => (b as JsonSchema).type === 'null' && Object.keys(b as JsonSchema).length === 1);
  const other = branches[1 - nullAt] as JsonSchema | undefined;
  if (nullAt < 0 || !other || typeof other.type !== 'string') return node;
  const { anyOf: _, ...rest } = node;
  return { ...rest, ...other, type: [other.type, 'null'] };
}

/**
 * What the serializer needs and nothing it would enforce differently from zod: string patterns and
 * formats are checks, not shapes (a `date-time` format would also reformat), and a property of any
 * type (`z.unknown()`) may be left out, as zod allows; extra properties are dropped, as by zod.
 */
function relaxed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relaxed);
  if (!node || typeof node !== 'object') return node;
  const source = orNull(node as JsonSchema);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'pattern' || key === 'format' || key === '$schema') continue;
    // extra properties are left out either way; `false` would fail a value inside anyOf
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = key === 'properties' || key === 'definitions' ? mapValues(value as JsonSchema, relaxed) : relaxed(value);
  }
  const properties = out.properties as JsonSchema | undefined;
  if (properties && Array.isArray(out.required)) {
    out.required = (out.required as string[]).filter((name) => {
      const property = properties[name] as JsonSchema | undefined;
      return property && Object.keys(property).some((k) => k !== 'description' && k !== 'default');
    });
  }
  return out;
}

const mapValues = (object: JsonSchema, map: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
