import { z } from 'zod';
import { sexes } from '../auth';
import { isoDay } from '../dates';
import type { EntityManifest } from '../entity';
import { textFilter } from '../resource';
import { auditFields, closingFields, erpResource, erpStatus, moneySchema, nameSchema, optionalText } from './common';
import { erpDetail, erpRoute } from './pages';

const mobileSchema = z
  .string()
  .trim()
  .max(21)
  .regex(/^\+?[0-9]{5,20}$/, 'invalid mobile number');
const sexSchema = z.enum(sexes);

/** Members (customers): mobile unique per tenant, points and a balance in fen. */
export const memberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  mobile: z.string(),
  sex: sexSchema,
  birthday: z.string().nullable(),
  level: z.number().int(),
  points: z.number().int(),
  balance: z.number().int(),
  tags: z.array(z.string()),
  ...erpStatus,
  remark: z.string().nullable(),
  ...auditFields,
});
export const createMemberSchema = z.object({
  name: nameSchema(30),
  mobile: mobileSchema,
  sex: sexSchema.default('2'),
  birthday: isoDay().nullish(),
  level: z.number().int().min(0).max(10).default(0),
  points: z.number().int().min(0).max(1_000_000_000).default(0),
  balance: moneySchema.default(0),
  tags: z.array(z.string().trim().min(1).max(20)).max(20).default([]),
  status: erpStatus.status.default('0'),
  remark: optionalText(500),
});

export const memberResource = erpResource({
  name: 'member',
  item: memberSchema,
  create: createMemberSchema,
  filters: z.object({
    name: textFilter(30),
    mobile: textFilter(20),
    level: z.coerce.number().int().min(0).max(10).optional(),
    status: erpStatus.status.optional(),
  }),
  sortable: ['name', 'points', 'balance', 'level', 'createTime'],
  keyset: true,
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export'],
});
export type Member = z.infer<typeof memberSchema>;

/** One row of a member's points history. */
export const memberPointsSchema = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  balance: z.number().int(),
  reason: z.string(),
  refNo: z.string().nullable(),
  createTime: z.string(),
});
export type MemberPoints = z.infer<typeof memberPointsSchema>;

const sexOptions = [
  { label: 'erp.member.sex.0', value: '0' },
  { label: 'erp.member.sex.1', value: '1' },
  { label: 'erp.member.sex.2', value: '2' },
];

export const memberEntity: EntityManifest = {
  resource: memberResource,
  route: erpRoute('member'),
  detail: erpDetail('member'),
  fields: [
    { field: 'name', label: 'erp.member.name', search: true },
    { field: 'mobile', label: 'erp.member.mobile', search: 'prefix' },
    { field: 'sex', label: 'erp.member.sex', widget: 'radio', options: sexOptions },
    { field: 'birthday', label: 'erp.member.birthday', widget: 'date', column: { hidden: true } },
    { field: 'level', label: 'erp.member.level', widget: 'number', search: true },
    { field: 'points', label: 'erp.member.points', widget: 'number' },
    { field: 'balance', label: 'erp.member.balance', widget: 'money' },
    { field: 'tags', label: 'erp.member.tags', widget: 'tags', column: { hidden: true } },
    ...closingFields,
  ],
  createDefaults: { status: '0', sex: '2', level: 0, points: 0, balance: 0, tags: [] },
};
