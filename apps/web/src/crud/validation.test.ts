import { moneySchema } from '@atrium/contracts/erp/common';
import { codeSchema, orderNumSchema } from '@atrium/contracts/system/common';
import { userResource } from '@atrium/contracts/system/user';
import type { i18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testI18n } from '../../test/i18n';
import { ApiError } from '../api';
import { issuesToErrors, serverErrors } from './validation';

const labels: Record<string, string> = { name: 'Name', code: 'Code', sort: 'Order', skus: 'SKUs', price: 'Price', keywords: 'Keywords' };
const label = (field: string) => labels[field] ?? field;

let en: i18n;
let zh: i18n;
beforeAll(async () => {
  en = await testI18n('en-US', () => import('./messages'));
  zh = await testI18n('zh-CN', () => import('./messages'));
});

/** The messages a contract schema's issues become, in `lang`. */
function check(schema: z.ZodType, values: Record<string, unknown>, i18n = en) {
  const result = schema.safeParse(values);
  if (result.success) return {};
  return issuesToErrors(result.error.issues, label, i18n.t, values);
}

describe('issuesToErrors: contract issues as messages under their fields', () => {
  const form = z.object({ code: codeSchema(10), sort: orderNumSchema, name: z.string().trim().max(5).optional() });

  it('a missing or empty field is "required", whatever rule it broke', () => {
    expect(check(form, { sort: 1 })).toEqual({ code: 'Code is required' });
    expect(check(form, { code: '', sort: 1 })).toEqual({ code: 'Code is required' });
    expect(check(form, { code: 'a1', sort: null })).toEqual({ sort: 'Order is required' });
  });

  it('text over its maximum says how long it may be; a number over its maximum says how large', () => {
    expect(check(form, { code: 'a'.repeat(11), sort: 10_000 })).toEqual({
      code: 'Code can be at most 10 characters',
      sort: 'Order can be at most 9999',
    });
  });

  it('a number under its minimum is not called missing', () => {
    expect(check(form, { code: 'a', sort: -1 })).toEqual({ sort: 'Order must be at least 0' });
  });

  it('a fraction where a whole number is asked for says so', () => {
    expect(check(form, { code: 'a', sort: 1.5 })).toEqual({ sort: 'Order must be a whole number' });
    expect(check(z.object({ price: z.number() }), { price: 'x' })).toEqual({ price: 'Price must be a number' });
  });

  it('a broken pattern says "format", or the rule itself when a bundle explains its key', async () => {
    expect(check(form, { code: '1abc', sort: 1 })).toEqual({ code: 'Code is not in the right format' });
    const withRule = z.object({ code: z.string().regex(/^[a-z]+$/, 'chars.parameter') });
    const visual = await testI18n(
      'en-US',
      () => import('./messages'),
      () => import('../modules/visualization/messages'),
    );
    const result = withRule.safeParse({ code: '1' });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(issuesToErrors(result.error.issues, label, visual.t, { code: '1' })).toEqual({
        code: 'Code: a letter first, then letters, digits, dots, underscores or hyphens',
      });
  });

  it('inside a list of rows it names the row (from 1) and the column', () => {
    const skus = z.object({ skus: z.array(z.object({ price: moneySchema })).min(1) });
    expect(check(skus, { skus: [{ price: 100 }, { price: -1 }] })).toEqual({ skus: 'SKUs 2 · Price must be at least 0' });
    expect(check(skus, { skus: [{ price: 100 }, {}] })).toEqual({ skus: 'SKUs 2 · Price is required' });
    expect(check(skus, { skus: [] })).toEqual({ skus: 'SKUs: add at least 1' });
  });

  it("keeps a field's first issue", () => {
    const twice = z.object({
      name: z
        .string()
        .min(3)
        .regex(/^[a-z]+$/),
    });
    expect(check(twice, { name: '1' })).toEqual({ name: 'Name needs at least 3 characters' });
  });

  it('speaks the form language', () => {
    expect(check(form, { code: '', sort: 1 }, zh)).toEqual({ code: 'Code不能为空' });
    expect(check(userResource.filters, { name: 'x'.repeat(21) }, zh)).toEqual({ name: 'Name最多 20 个字符' });
  });
});

describe('serverErrors: a 400 that names fields', () => {
  const refused = (fields: { field: string; rule: string; message: string }[]) =>
    new ApiError('Some fields are invalid', 40001, 400, { fields });

  it('puts each message after its label, and a "unique" refusal in the form language', () => {
    const error = refused([
      { field: 'code', rule: 'unique', message: 'is already in use' },
      { field: 'name', rule: 'max', message: 'can be at most 5 characters' },
    ]);
    expect(serverErrors(error, label, en.t)).toEqual({ code: 'Code is already in use', name: 'Name: can be at most 5 characters' });
    expect(serverErrors(error, label, zh.t)).toMatchObject({ code: 'Code已被使用' });
  });

  it('a sentence that already names its field stands alone, capitalised', () => {
    const error = refused([{ field: 'name', rule: 'custom', message: 'the name is reserved' }]);
    expect(serverErrors(error, label, en.t)).toEqual({ name: 'The name is reserved' });
  });

  it('is null when nothing names a field of this form, so the caller shows the message', () => {
    expect(serverErrors(new Error('network'), label, en.t)).toBeNull();
    expect(serverErrors(new ApiError('Conflict', 409, 409, null), label, en.t)).toBeNull();
    const other = refused([{ field: 'deptId', rule: 'ref', message: 'no record with id 9' }]);
    expect(serverErrors(other, label, en.t, ['name', 'code'])).toBeNull();
    expect(serverErrors(other, label, en.t)).toEqual({ deptId: 'deptId: no record with id 9' });
  });
});
