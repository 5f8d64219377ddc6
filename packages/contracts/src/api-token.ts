import { z } from 'zod';
import { isoDateTime } from './dates';
import { idParamSchema } from './resource';

/**
 * Personal API tokens: a user's scripts call the API with `Authorization: Bearer atr_…`, as that user in
 * the tenant the token was made in, with at most the token's permissions and the user's current ones.
 */
export const API_TOKEN_PREFIX = 'atr_';
/** The latest expiry a token may have, counted from its creation. */
export const API_TOKEN_MAX_DAYS = 365;
export const API_TOKEN_NAME_MAX = 60;

export const createApiTokenInputSchema = z.object({
  name: z.string().trim().min(1).max(API_TOKEN_NAME_MAX),
  /** After now and at most API_TOKEN_MAX_DAYS ahead (the server names `expiresAt` otherwise). */
  expiresAt: isoDateTime(),
  /** Permission strings the caller holds (each one; 400 naming `permissions` otherwise). */
  permissions: z.array(z.string().min(1).max(100)).min(1).max(500),
});
export type CreateApiTokenInput = z.infer<typeof createApiTokenInputSchema>;

/** The answer to creating a token: the only time the token itself is shown. */
export const createdApiTokenSchema = z.object({ id: z.number().int(), token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

/** A token as its owner (or an administrator) sees it: never the token or its hash. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(z.string()),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  createTime: z.string(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The admin's routes name the user (tenant_users.id) and the token. */
export const userTokenParamsSchema = z.object({ userId: idParamSchema.shape.id, id: idParamSchema.shape.id });
export const userIdParamSchema = z.object({ userId: idParamSchema.shape.id });
