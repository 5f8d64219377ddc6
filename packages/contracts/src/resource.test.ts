import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { passwordSchema } from './auth';
import { pageQuerySchema } from './envelope';
import { moneySchema } from './erp/common';
import { countWords } from './forms';
import { buildTree, dateFilter, defineResource, idParamSchema, sortSchema, textFilter } from './resource';
import { codeSchema, optionalEmail, optionalPhone } from './system/common';

const ok = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

describe('path ids', () => {
  it('take decimal digits only, as a positive safe integer', () => {
    expect(idParamSchema.parse({ id: '42' })).toEqual({ id: 42 });
    for (const id of ['0', '-1', '0x10', '1e3', ' 1', '1 ', '1.0', '', '12345678901234567', '9999999999999999', "1' OR '1'='1"]) {
      expect(ok(idParamSchema, { id }), id).toBe(false);
    }
  });
});

describe('query-string filters', () => {
  it('a text filter is trimmed, empty means no filter, and its maximum counts the trimmed text', () => {
    const name = textFilter(5);
    expect(name.parse('  Ann ')).toBe('Ann');
    expect(name.parse('   ')).toBeUndefined();
    expect(name.parse(undefined)).toBeUndefined();
    expect(name.parse('  abcde  ')).toBe('abcde');
    expect(ok(name, 'abcdef')).toBe(false);
  });

  it('a date filter takes ISO instants and calendar dates, and refuses nonsense and far years', () => {
    const date = dateFilter();
    expect(date.parse('2026-11-23T00:00:00.000Z')).toEqual(new Date(Date.UTC(2026, 10, 23)));
    expect(date.parse('2026-11-23T08:00:00+08:00')).toEqual(new Date(Date.UTC(2026, 10, 23)));
    expect(date.parse('2026-11-23')).toEqual(new Date(Date.UTC(2026, 10, 23)));
    expect(date.parse('')).toBeUndefined();
    for (const bad of ['yesterday', '0001-01-01', '10000-01-01', '2026-13-01', `2026-11-23${' '.repeat(40)}x`]) {
      expect(ok(date, bad), bad).toBe(false);
    }
  });

  it('a sort is an allow-listed column with :asc or :desc, else the default', () => {
    const sort = sortSchema(['name', 'createTime'], { column: 'createTime', direction: 'desc' });
    expect(sort.parse(undefined)).toEqual({ column: 'createTime', direction: 'desc' });
    expect(sort.parse('name')).toEqual({ column: 'name', direction: 'asc' });
    expect(sort.parse('name:desc')).toEqual({ column: 'name', direction: 'desc' });
    for (const bad of ['password', 'name:up', 'name:asc:x', 'name:', 'NAME', 'name;drop table users'])
      expect(ok(sort, bad), bad).toBe(false);
  });

  it('paging is coerced from text, with a default, a floor and a ceiling', () => {
    expect(pageQuerySchema.parse({})).toEqual({ pageNum: 1, pageSize: 20 });
    expect(pageQuerySchema.parse({ pageNum: '3', pageSize: '50' })).toEqual({ pageNum: 3, pageSize: 50 });
    for (const bad of [{ pageNum: '0' }, { pageSize: '201' }, { pageSize: '1.5' }, { pageNum: 'x' }])
      expect(ok(pageQuerySchema, bad)).toBe(false);
  });
});

describe('defineResource', () => {
  const base = {
    name: 'thing',
    domain: 'demo',
    basePath: 'demo/thing',
    item: z.object({ id: z.number() }),
    create: z.object({ name: z.string() }),
    update: z.object({ name: z.string() }),
    filters: z.object({ name: textFilter(10) }),
    sortable: ['name', 'id'] as const,
    defaultSort: { column: 'id', direction: 'desc' } as const,
    actions: ['list', 'query', 'delete'] as const,
  };

  it('derives permissions, paths and the i18n prefix from its name', () => {
    const thing = defineResource({ ...base, sortable: ['name', 'id'], actions: ['list', 'query', 'delete'] });
    expect(thing.permission('delete')).toBe('demo:thing:delete');
    expect(thing.basePath).toBe('/demo/thing');
    expect(thing.paths).toMatchObject({
      list: '/demo/thing',
      query: '/demo/thing/:id',
      status: '/demo/thing/:id/status',
      export: '/demo/thing/export',
    });
    expect(thing.i18n).toBe('demo.thing');
    expect(thing.has('delete')).toBe(true);
    expect(thing.has('create')).toBe(false);
    const spelled = defineResource({ ...base, sortable: ['name', 'id'], actions: ['list'], paths: { list: '/demo/things' }, i18n: 'x.y' });
    expect([spelled.paths.list, spelled.paths.query, spelled.i18n]).toEqual(['/demo/things', '/demo/thing/:id', 'x.y']);
  });

  it('its list query is paging, the filters and the allow-listed sort', () => {
    const thing = defineResource({ ...base, sortable: ['name', 'id'], actions: ['list'] });
    expect(thing.listQuery.parse({ name: ' a ', sort: 'name:asc', pageSize: '5' })).toMatchObject({
      pageNum: 1,
      pageSize: 5,
      name: 'a',
      sort: { column: 'name', direction: 'asc' },
    });
    expect(ok(thing.listQuery, { sort: 'createTime' })).toBe(false);
    expect(ok(thing.listQuery, { name: 'x'.repeat(11) })).toBe(false);
  });

  it('takes after/before row ids only where the list pages by keyset', () => {
    const plain = defineResource({ ...base, sortable: ['id'], actions: ['list'] });
    const keyset = defineResource({ ...base, sortable: ['id'], actions: ['list'], keyset: true });
    expect(ok(plain.listQuery, { after: '10' })).toBe(false);
    expect(keyset.listQuery.parse({ after: '10' }).after).toBe(10);
    expect(ok(keyset.listQuery, { before: '0' })).toBe(false);
    expect(ok(keyset.listQuery, { after: '2147483648' })).toBe(false);
  });
});

describe('buildTree', () => {
  it('nests rows under their parents; a row whose parent is missing is a root', () => {
    const tree = buildTree([
      { id: 1, parentId: null, name: 'head office' },
      { id: 2, parentId: 1, name: 'sales' },
      { id: 3, parentId: 2, name: 'north' },
      { id: 4, parentId: 99, name: 'orphan' },
      { id: 5, parentId: 1, name: 'finance' },
    ]);
    expect(tree.map((n) => n.name)).toEqual(['head office', 'orphan']);
    expect(tree[0]?.children.map((n) => n.name)).toEqual(['sales', 'finance']);
    expect(tree[0]?.children[0]?.children.map((n) => n.name)).toEqual(['north']);
  });

  it('does not depend on row order', () => {
    const tree = buildTree([
      { id: 3, parentId: 2 },
      { id: 2, parentId: 1 },
      { id: 1, parentId: null },
    ]);
    expect(tree).toHaveLength(1);
    expect(tree[0]?.children[0]?.children[0]?.id).toBe(3);
  });
});

describe('field building blocks', () => {
  it('money is whole fen from 0 to a billion yuan', () => {
    for (const fen of [0, 1, 100_000_000_000]) expect(ok(moneySchema, fen)).toBe(true);
    for (const bad of [-1, 1.5, 100_000_000_001, '100']) expect(ok(moneySchema, bad)).toBe(false);
  });

  it('a code starts with a letter, then letters, digits, _ and -', () => {
    const code = codeSchema(10);
    expect(code.parse(' sys_user-1 ')).toBe('sys_user-1');
    for (const bad of ['', '1abc', '_a', 'a b', 'ab.c', 'a'.repeat(11)]) expect(ok(code, bad), bad).toBe(false);
  });

  it('an optional phone or e-mail may be empty or absent, and is checked when given', () => {
    for (const value of ['', null, undefined, '13800138000', '+86 138-0013-8000'])
      expect(ok(optionalPhone(), value), String(value)).toBe(true);
    for (const bad of ['12', 'phone', '138001380001380013800']) expect(ok(optionalPhone(), bad), bad).toBe(false);
    for (const value of ['', null, 'ann@example.com', ' ann@example.com ']) expect(ok(optionalEmail(), value), String(value)).toBe(true);
    for (const bad of ['ann', 'ann@', '@example.com']) expect(ok(optionalEmail(), bad), bad).toBe(false);
  });

  it('a password has 10+ characters with letters, digits and a special character, each failure with its key', () => {
    expect(ok(passwordSchema, 'Atrium#2026')).toBe(true);
    const keyOf = (value: string) => passwordSchema.safeParse(value).error?.issues[0]?.message;
    expect(keyOf('Ab#1')).toBe('password.tooShort');
    expect(keyOf('abcdefghij1')).toBe('password.weak');
    expect(keyOf('abcdefgh#!')).toBe('password.weak');
    expect(keyOf(`Aa1#${'x'.repeat(125)}`)).toBe('password.tooLong');
  });

  it('counts words as a reader does: each Chinese character one, each run of other text one', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('hello  world')).toBe(2);
    expect(countWords('推广活动')).toBe(4);
    expect(countWords('双11 sale 开始')).toBe(5);
  });
});
