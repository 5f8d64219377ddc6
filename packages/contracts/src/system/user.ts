import { z } from 'zod';
import { passwordSchema, sexSchema, statusSchema, userTypeSchema } from '../auth';
import { dateFilter, defineResource, textFilter } from '../resource';
import { auditFields, idListSchema, optionalEmail, optionalPhone, optionalText, webAddress } from './common';
import { systemManifest } from './entity';

/**
 * Body fields that sign an account in or recover it: changing one of another account's is taking it over,
 * so it needs what resetting its password needs. A field added later that does the same (MFA factors, SSO
 * links) belongs here; a route whose body carries one declares how it uses it (AccountIdentifierUse, in its
 * config as `accountIdentifiers`), and the authorization matrix probes every such route.
 */
export const ACCOUNT_IDENTIFIER_FIELDS = ['accountId', 'email', 'phone'] as const;
export type AccountIdentifierField = (typeof ACCOUNT_IDENTIFIER_FIELDS)[number];

export const userSchema = z.object({
  id: z.number().int(),
  accountId: z.string(),
  name: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  sex: sexSchema.nullable(),
  userType: userTypeSchema,
  status: statusSchema,
  deptId: z.number().int().nullable(),
  deptName: z.string().nullable(),
  postIds: z.array(z.number().int()),
  roleIds: z.array(z.number().int()),
  idNumber: z.string().nullable(),
  address: z.string().nullable(),
  remark: z.string().nullable(),
  avatar: z.string().nullable(),
  ...auditFields,
});

const profileFields = {
  name: z.string().trim().min(1).max(20),
  nickname: z.string().trim().max(30).default(''),
  email: optionalEmail(),
  phone: optionalPhone(),
  sex: sexSchema.nullish(),
  userType: userTypeSchema.default('02'),
  status: statusSchema.default('0'),
  deptId: z.number().int().positive().nullish(),
  postIds: idListSchema.default([]),
  roleIds: idListSchema.default([]),
  idNumber: z
    .string()
    .trim()
    .max(18)
    .regex(/^[0-9A-Za-z]*$/, 'letters and digits only')
    .nullish(),
  address: optionalText(500),
  remark: optionalText(500),
  // an image address: http(s) or a path on this site, never a script (`javascript:`) or data to render
  avatar: webAddress(500).or(z.literal('')).nullish(),
};

export const createUserSchema = z.object({
  accountId: z
    .string()
    .trim()
    .min(2)
    .max(30)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . and - only'),
  password: passwordSchema.optional(),
  ...profileFields,
});
export const updateUserSchema = z.object(profileFields);

export const userResource = defineResource({
  name: 'user',
  domain: 'system',
  item: userSchema,
  create: createUserSchema,
  update: updateUserSchema,
  filters: z.object({
    name: textFilter(20),
    nickname: textFilter(30),
    accountId: textFilter(30),
    phone: textFilter(20),
    email: textFilter(100),
    status: statusSchema.optional(),
    /** The department and every department below it. */
    deptId: z.coerce.number().int().positive().optional(),
    createTimeFrom: dateFilter(),
    createTimeTo: dateFilter(),
  }),
  sortable: ['createTime', 'accountId', 'id'],
  keyset: true,
  // the form changes a user's e-mail and phone (the server's guardIdentifierChange); creating makes a new account
  accountIdentifiers: { create: { use: 'new' }, update: { use: 'target', read: '/system/user/user/:id' } },
  defaultSort: { column: 'createTime', direction: 'desc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export', 'import'],
  // the spec's exact calls (section 7)
  paths: {
    list: '/system/user/user',
    query: '/system/user/user/:id',
    create: '/system/user/info',
    update: '/system/user/info/:id',
    status: '/system/user/infoStatus/:id',
    delete: '/system/user/info/:id',
    export: '/system/user/export',
    import: '/system/user/import',
  },
});

/**
 * Users on the manifest machinery; their page is their own (department tree, roles, password, import).
 * The fields are the Excel sheet's columns: what the export writes and the import reads, by header in
 * either language, so an export is its own template.
 */
export const userEntity = systemManifest(userResource, {
  // the password reset and the role assignment: routes of their own
  extraActions: ['resetPwd', 'grant'],
  fields: [
    { field: 'accountId', label: 'system.user.accountId' },
    { field: 'name', label: 'system.user.name' },
    { field: 'nickname', label: 'system.user.nickname' },
    { field: 'phone', label: 'system.user.phone' },
    { field: 'email', label: 'system.user.email', exportWidth: 28 },
    { field: 'sex', label: 'system.user.sex', codes: 'sex', exportWidth: 8 },
    { field: 'userType', label: 'system.user.userType', codes: 'userType', exportWidth: 14 },
    { field: 'deptName', label: 'system.user.dept', exportWidth: 20 },
    { field: 'status', label: 'crud.status', codes: 'status', exportWidth: 8 },
    { field: 'idNumber', label: 'system.user.idNumber', exportWidth: 20 },
    { field: 'address', label: 'system.user.address', exportWidth: 30 },
    { field: 'remark', label: 'crud.remark', exportWidth: 30 },
    { field: 'createTime', label: 'system.user.createTime', widget: 'datetime', exportWidth: 24 },
  ],
});

export const resetPasswordSchema = z.object({ password: passwordSchema });
export const assignRolesSchema = z.object({ roleIds: idListSchema });
/** One problem of a rejected Excel import row: its sheet row number, the field by its column header, the rule and what was wrong. */
export const importRowErrorSchema = z.object({
  row: z.number().int(),
  field: z.string(),
  rule: z.string().optional(),
  message: z.string(),
});
export const importResultSchema = z.object({ created: z.number().int(), failed: z.number().int(), errors: z.array(importRowErrorSchema) });

export type User = z.infer<typeof userSchema>;
export type CreateUserInput = z.infer<typeof createUserSchema>;
export type UpdateUserInput = z.infer<typeof updateUserSchema>;
export type ImportResult = z.infer<typeof importResultSchema>;
