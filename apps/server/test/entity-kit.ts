import type { EntityManifest } from '@atrium/contracts';
import type { z } from 'zod';

/**
 * The per-entity test kit: what the generic tests derive from an entity's contract. Each input field
 * of the create (and of the update) schema becomes a list of bad values (a wrong type, one character over its maximum
 * length, a NUL byte), and every string field must declare a maximum length.
 */

type Def = {
  type: string;
  format?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  shape?: unknown;
};
const defOf = (s: z.ZodType) => (s as unknown as { def: Def }).def;

/** The schema under optional/nullable/default/pipe wrappers; unions stay (their options are checked one by one). */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (def.innerType && ['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type))
      s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else return s;
  }
}

/** The leaf kinds a field accepts (a union's options; an array's element as `array`). */
function kinds(schema: z.ZodType): z.ZodType[] {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === 'union' && def.options) return def.options.flatMap(kinds);
  return [s];
}

const maxLengthOf = (s: z.ZodType) => (s as unknown as { maxLength: number | null }).maxLength;

export type FieldShape = { field: string; type: string; maxLength: number | null; format?: string; element?: FieldShape };

function shapeOf(field: string, schema: z.ZodType): FieldShape {
  const leaves = kinds(schema);
  const str = leaves.find((l) => defOf(l).type === 'string');
  // a format (ISO date, e-mail…) bounds the text by itself
  if (str) return { field, type: 'string', maxLength: maxLengthOf(str), format: (defOf(str) as { format?: string }).format };
  const first = leaves[0] as z.ZodType;
  const def = defOf(first);
  if (def.type === 'array' && def.element) return { field, type: 'array', maxLength: null, element: shapeOf(`${field}.0`, def.element) };
  return { field, type: def.type, maxLength: null };
}

/** The input fields of an entity's create contract (or of its update contract: `which`). */
export function inputFields(m: EntityManifest, which: 'create' | 'update' = 'create'): FieldShape[] {
  const schema = unwrap((which === 'create' ? m.resource.create : m.resource.update) as z.ZodType);
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([field, schema]) => shapeOf(field, schema));
}

/** String fields (also inside arrays, one level down) without a maximum length: each is a hole. */
export function unboundedStrings(m: EntityManifest): string[] {
  const missing: string[] = [];
  const check = (f: FieldShape) => {
    if (f.type === 'string' && f.maxLength === null && !f.format) missing.push(`${m.resource.domain}:${m.resource.name}.${f.field}`);
    if (f.element) check(f.element);
  };
  for (const f of [...inputFields(m), ...(m.resource.actions.includes('update') ? inputFields(m, 'update') : [])]) check(f);
  return missing;
}

export type BadValue = { what: string; value: unknown; field: string };

/** Bad values for one field: a wrong type always; for strings also over the maximum and a NUL byte. */
export function badValues(f: FieldShape): BadValue[] {
  const wrongType = f.type === 'string' ? { nested: ['object'] } : f.type === 'object' ? 'text' : 'not-a-number';
  const bad: BadValue[] = [{ what: 'wrong type', value: wrongType, field: f.field }];
  if (f.type === 'string' && f.maxLength !== null)
    bad.push({ what: 'over max length', value: 'x'.repeat(f.maxLength + 1), field: f.field });
  if (f.type === 'string') bad.push({ what: 'NUL byte', value: 'a\u0000b', field: f.field });
  if (f.element?.type === 'string') {
    for (const e of badValues(f.element).slice(1)) bad.push({ what: `element ${e.what}`, value: [e.value], field: f.field });
  }
  return bad;
}
