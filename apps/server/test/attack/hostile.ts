import fc from 'fast-check';
import type { z } from 'zod';

/** Strings that have broken back-offices before: injections, control characters, oversize, odd unicode. */
export const hostileStrings = [
  "' OR '1'='1",
  '1; DROP TABLE accounts; --',
  "admin'--",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '\u0000',
  '\u202e\u0000\u0007',
  '😀'.repeat(64),
  '𠮷'.repeat(300),
  'x'.repeat(10_000),
  '',
  '   ',
  '../../etc/passwd',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  '${7*7}',
  '{{7*7}}',
  '\\',
  'null',
  'NaN',
  '-1',
  '99999999999999999999999',
  'createTime:desc;drop table x',
  'id desc, (select 1)',
];

export const hostileValues: unknown[] = [
  ...hostileStrings,
  -1,
  0,
  1.5,
  2 ** 53,
  -(2 ** 63),
  1e308,
  true,
  null,
  [],
  {},
  [1, 2, 3],
  { $gt: '' },
  { __proto__: { admin: true } },
];

/** Values for path ids: never a 500, always 400 or 404. */
export const hostileIds = [
  '0',
  '-1',
  'abc',
  '1.5',
  '99999999999999999999',
  "1' OR '1'='1",
  '1;select 1',
  '%27',
  '9223372036854775808',
  'NaN',
  // not ' 1': Number(' 1') is a real id, and the fuzzer would reset its own password
  ' 1x',
  '1e3',
];

const anyValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hostileValues) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
);

function objectShape(schema: unknown): Record<string, unknown> | null {
  const s = schema as
    | { shape?: Record<string, unknown>; _zod?: { def?: { type?: string; in?: unknown; innerType?: unknown } } }
    | undefined;
  if (!s) return null;
  if (s.shape && typeof s.shape === 'object') return s.shape;
  const def = s._zod?.def;
  if (def?.type === 'pipe') return objectShape(def.in);
  if (def?.innerType) return objectShape(def.innerType);
  return null;
}

/** An arbitrary input for a zod object schema: its own keys with hostile values, some missing, plus strangers. */
export function hostileObject(schema: z.ZodType | undefined): fc.Arbitrary<unknown> {
  const shape = objectShape(schema);
  const keys = shape ? Object.keys(shape) : [];
  const record = fc.record(Object.fromEntries([...keys, 'unknownField', '__proto__x'].map((k) => [k, anyValue])), { requiredKeys: [] });
  return fc.oneof({ weight: 8, arbitrary: record }, { weight: 1, arbitrary: fc.constantFrom<unknown>('text', 42, [], null, [{}]) });
}

/** The same, flattened to query-string values. */
export function hostileQuery(schema: z.ZodType | undefined): fc.Arbitrary<Record<string, string | undefined>> {
  const shape = objectShape(schema);
  const keys = [...(shape ? Object.keys(shape) : []), 'sort', 'pageNum', 'pageSize', 'unknownField'];
  return fc.record(Object.fromEntries(keys.map((k) => [k, fc.constantFrom(...hostileStrings, '-5', '0', '1e9', '[]')])), {
    requiredKeys: [],
  });
}
