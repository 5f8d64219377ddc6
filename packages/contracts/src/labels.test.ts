import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CodeKind, codeLabel, codeLabels, codeOptions, type Label, labelledCodes, namesKeptAsTheyAre } from './labels';
import { booleanQueryValues } from './realtime';
import * as release from './release';
import { releaseLabel } from './release-labels';

const here = dirname(fileURLToPath(import.meta.url));

/** Enums that are not codes the server sends, with why. */
const notCodes: { values: readonly string[]; why: string }[] = [
  { values: booleanQueryValues, why: 'a boolean as a query string writes it (notifications’ `read`): parsed, never shown' },
];

type Found = { values: string[]; where: string };

/** Every string enum in a value: zod schemas through all their wrappers, and plain objects and arrays holding them. */
function enumsIn(value: unknown, where: string, found: Found[], seen: Set<unknown>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  const zod = (value as { _zod?: { def: Record<string, unknown> & { type: string } } })._zod;
  if (!zod) {
    const proto = Object.getPrototypeOf(value);
    if (Array.isArray(value)) for (const [i, item] of value.entries()) enumsIn(item, `${where}[${i}]`, found, seen);
    else if (proto === Object.prototype || proto === null)
      for (const [key, inner] of Object.entries(value)) enumsIn(inner, `${where}.${key}`, found, seen);
    return;
  }
  const def = zod.def;
  const inner: [unknown, string][] = [];
  switch (def.type) {
    case 'enum': {
      const values = Object.values(def.entries as Record<string, unknown>);
      if (values.every((v) => typeof v === 'string')) found.push({ values: values as string[], where });
      break;
    }
    case 'union': {
      const options = def.options as { _zod: { def: { type: string; values?: unknown[] } } }[];
      // a union of string literals is an enum by another name
      const literals = options.every((o) => o._zod.def.type === 'literal' && o._zod.def.values?.every((v) => typeof v === 'string'));
      if (literals && options.length > 1) found.push({ values: options.flatMap((o) => o._zod.def.values as string[]), where });
      else for (const [i, option] of options.entries()) inner.push([option, `|${i}`]);
      break;
    }
    case 'object':
      for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) inner.push([field, `.${key}`]);
      inner.push([def.catchall, '.*']);
      break;
    case 'array':
      inner.push([def.element, '[]']);
      break;
    case 'record':
    case 'map':
      inner.push([def.keyType, '{key}'], [def.valueType, '{value}']);
      break;
    case 'set':
      inner.push([def.valueType, '{item}']);
      break;
    case 'tuple':
      for (const [i, item] of (def.items as unknown[]).entries()) inner.push([item, `[${i}]`]);
      inner.push([def.rest, '[...]']);
      break;
    case 'intersection':
      inner.push([def.left, ''], [def.right, '']);
      break;
    case 'pipe':
      inner.push([def.in, ''], [def.out, '']);
      break;
    case 'lazy':
      inner.push([(def.getter as () => unknown)(), '']);
      break;
    default:
      // optional, nullable, default, prefault, catch, readonly, nonoptional, promise: the schema they wrap
      inner.push([def.innerType, '']);
  }
  for (const [schema, step] of inner) enumsIn(schema, `${where}${step}`, found, seen);
}

/** Every module of the contracts (tests aside): a new file's enums are checked too. */
async function contractEnums(): Promise<Found[]> {
  const files = (readdirSync(here, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort();
  const found: Found[] = [];
  const seen = new Set<unknown>();
  for (const file of files) {
    const module = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) enumsIn(value, `${file.replace(/\\/g, '/')}: ${name}`, found, seen);
  }
  return found;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v) => b.includes(v));
const kinds = Object.keys(labelledCodes) as CodeKind[];
const labelOf = (kind: CodeKind, code: string) => (codeLabels[kind] as Record<string, Label | undefined>)[code];

describe('every code the server sends has words in both languages', () => {
  it('labels every enum in the contracts by some kind', async () => {
    const found = await contractEnums();
    const unlabelled = found.filter(
      ({ values }) =>
        !notCodes.some((skip) => sameSet(skip.values, values)) &&
        !kinds.some((kind) => values.every((code) => (labelledCodes[kind] as readonly string[]).includes(code))),
    );
    expect(unlabelled.map(({ values, where }) => `${where}: ${values.join(', ')}`)).toEqual([]);
    expect(found.length).toBeGreaterThanOrEqual(50);
  });

  it('finds enums inside objects, wrappers, arrays, unions, pipes and plain objects', () => {
    const schema = z
      .object({
        list: z.array(z.enum(['a'])).optional(),
        nested: z.object({ inner: z.enum(['b']).nullable().default(null) }).extend({ added: z.enum(['c']) }),
        parsed: z
          .enum(['d'])
          .optional()
          .transform((v) => v),
        either: z.union([z.number(), z.record(z.string(), z.enum(['e']))]),
        literals: z.union([z.literal('f'), z.literal('g')]),
      })
      .superRefine(() => undefined);
    const found: Found[] = [];
    enumsIn({ resource: { filters: schema } }, 'x', found, new Set());
    expect(found.map(({ values }) => values.join())).toEqual(['a', 'b', 'c', 'd', 'e', 'f,g']);
  });

  it('labels every list of codes the release contract exports', () => {
    // statuses that reach the pages as plain strings, not as an enum: the lists of UPPER_CASE codes
    const lists = (Object.entries(release) as [string, unknown][]).filter(
      (entry): entry is [string, readonly string[]] =>
        Array.isArray(entry[1]) && entry[1].length > 0 && entry[1].every((v) => typeof v === 'string' && /^[A-Z][A-Z_]*$/.test(v)),
    );
    const unlabelled = lists.filter(([, list]) => !kinds.some((kind) => list.every((c) => labelOf(kind, c))));
    expect(unlabelled.map(([name]) => name)).toEqual([]);
    expect(lists.length).toBeGreaterThanOrEqual(4);
  });

  it('has words for exactly the codes of each kind', () => {
    for (const kind of kinds) expect(Object.keys(codeLabels[kind]).sort(), kind).toEqual([...labelledCodes[kind]].sort());
  });

  it('has a Chinese label and an English one for each code, the English not the code', () => {
    for (const kind of kinds) {
      for (const code of labelledCodes[kind]) {
        const label = labelOf(kind, code);
        const at = `${kind}.${code}`;
        expect(label, at).toBeDefined();
        expect(label?.en.trim().length, at).toBeGreaterThan(0);
        if (namesKeptAsTheyAre.includes(kind)) {
          // a technical name (720P, LC): the same in both languages
          expect(label?.zh, at).toBe(label?.en);
          continue;
        }
        expect(label?.zh, at).toMatch(/\p{Script=Han}/u);
        expect(label?.en, at).not.toBe(code);
      }
    }
  });

  it('gives the words in the language asked for, and an unknown code as it is', () => {
    expect(codeLabel('saleStatus', 'shipped', 'zh-CN')).toBe('已发货');
    expect(codeLabel('saleStatus', 'shipped', 'en-US')).toBe('Shipped');
    expect(codeLabel('status', '1', 'zh-CN')).toBe('停用');
    expect(codeLabel('setStatus', '1', 'zh-CN')).toBe('已下线');
    expect(codeLabel('printJobStatus', 'SOMETHING_NEW', 'en-US')).toBe('SOMETHING_NEW');
    expect(codeOptions('shelf', 'en-US')).toEqual([
      { label: 'On shelf', value: 'on' },
      { label: 'Off shelf', value: 'off' },
    ]);
    // the release pages' names for the same registry
    expect(releaseLabel('taskStatus', 'FAILED', 'zh-CN')).toBe('失败');
    expect(releaseLabel('permissionLevel', 'VIEWER', 'en-US')).toBe('Viewer');
    expect(releaseLabel('taskStatus', 'SOMETHING_NEW', 'en-US')).toBe('SOMETHING_NEW');
  });
});
