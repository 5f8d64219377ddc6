import {
  type AccountIdentifierUse,
  apiTokenSchema,
  assignRolesSchema,
  envelopeOf,
  errorEnvelopeSchema,
  idParamSchema,
  importResultSchema,
  resetPasswordSchema,
  userIdParamSchema,
  userResource,
  userSchema,
  userTokenParamsSchema,
} from '@atrium/contracts';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { displayNameOf, recordAudit } from '../../../crud/audit';
import { type Ctx, inTenant } from '../../../crud/context';
import { registerExport, XLSX_TYPE } from '../../../crud/excel';
import { ok, registerResource, routeOptions } from '../../../crud/register-resource';
import { AppError } from '../../../errors';
import { tellFactorsRemoved } from '../../auth/mfa.service';
import { importUsers, userColumns } from './user.import';
import { userService } from './user.service';

/** Users: the spec's exact calls through the machinery, plus reset password and role assignment. */
export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  limitTakenProbes(app);
  registerResource(app, userResource, userService);
  registerExport(app, userResource, userService.list, userColumns);

  // the sheet comes as the raw request body (Content-Type: the .xlsx type)
  app.addContentTypeParser(XLSX_TYPE, { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (_request, body, done) => done(null, body));
  r.post(
    userResource.paths.import,
    declare(
      { accountIdentifiers: { use: 'new' } satisfies AccountIdentifierUse },
      routeOptions(
        userResource,
        'import',
        { consumes: [XLSX_TYPE], response: { 200: envelopeOf(importResultSchema) } },
        { write: true, summary: 'user: import from Excel' },
      ),
    ),
    async (request) => {
      if (!Buffer.isBuffer(request.body)) throw new AppError('unsupportedMediaType');
      const body = request.body;
      const result = await inTenant(request, (ctx) => importUsers(ctx, body));
      recordAudit(request, { target: `${result.created} created, ${result.failed} failed` });
      return ok(result);
    },
  );

  r.put(
    '/system/user/resetPwd/:id',
    declare(
      // setting a password signs an account in: a signed-in session only, never an API token
      { sessionOnly: true },
      routeOptions(
        userResource,
        'resetPwd',
        { params: idParamSchema, body: resetPasswordSchema, response: { 200: envelopeOf(z.null()) } },
        { write: true, summary: 'user: reset password' },
      ),
    ),
    async (request) => {
      const { id } = request.params as { id: number };
      const user = await inTenant(request, (ctx) => userService.resetPassword(ctx, id, (request.body as { password: string }).password));
      recordAudit(request, { target: `${user.id} ${user.accountId}`, targetName: displayNameOf(user) });
      return ok(null);
    },
  );

  // removing someone's second factor takes over their sign-in as a password reset does: the same permission
  r.delete(
    '/system/user/mfa/:id',
    declare(
      // as a password reset: a signed-in session only, never an API token
      { sessionOnly: true, audit: { module: 'system:user', action: 'removeMfa' } },
      routeOptions(
        userResource,
        'resetPwd',
        { params: idParamSchema, response: { 200: envelopeOf(z.object({ removed: z.boolean() })) } },
        { write: true, summary: 'user: remove the second factor (authenticator app and recovery codes); the user is told by mail' },
      ),
    ),
    async (request) => {
      const { id } = request.params as { id: number };
      const { user, removed } = await inTenant(request, (ctx) => userService.removeFactors(ctx, id));
      recordAudit(request, { target: `${user.id} ${user.accountId}`, targetName: displayNameOf(user), after: { removed } });
      if (removed && user.email) tellFactorsRemoved(app, request, user.email, user.accountId, request.auth.accountId);
      return ok({ removed });
    },
  );

  r.put(
    '/system/user/authRole/:id',
    routeOptions(
      userResource,
      'grant',
      { params: idParamSchema, body: assignRolesSchema, response: { 200: envelopeOf(userSchema) } },
      { write: true, summary: 'user: assign roles' },
    ),
    async (request) => {
      const { id } = request.params as { id: number };
      const { before, after } = await inTenant(request, (ctx) =>
        userService.assignRoles(ctx, id, (request.body as { roleIds: number[] }).roleIds),
      );
      recordAudit(request, {
        target: `${after.id} ${after.accountId}`,
        targetName: displayNameOf(after),
        before: { roleIds: before },
        after: { roleIds: after.roleIds },
      });
      return ok(after);
    },
  );

  // another user's API tokens: listed and revoked under the password reset's permission and rule (the
  // caller holds at least what the user holds), as taking over an account's credentials is
  r.get(
    '/system/user/:userId/token',
    {
      config: { permission: 'system:user:resetPwd' },
      schema: {
        tags: ['system'],
        summary: "user: a user's personal API tokens in this tenant (never the token)",
        description: 'Errors: 403 a user holding more than the caller; 404 no such user here.',
        security: bearer,
        params: userIdParamSchema,
        response: { 200: envelopeOf(z.array(apiTokenSchema)), 400: e, 401: e, 403: e, 404: e },
      },
    },
    async (request) => {
      const { userId } = request.params as { userId: number };
      return ok(
        await inTenant(request, async (ctx) =>
          app.apiTokens.list({ accountRef: await tokenOwner(ctx, userId), tenantId: ctx.caller.tenantId }, ctx.tx),
        ),
      );
    },
  );

  r.delete(
    '/system/user/:userId/token/:id',
    {
      config: { permission: 'system:user:resetPwd', audit: { module: 'system:user', action: 'revokeToken' } },
      schema: {
        tags: ['system'],
        summary: "user: revokes one of a user's API tokens (refused from the next request on, on every instance)",
        description: 'Errors: 403 a user holding more than the caller; 404 no such user here, or not their token.',
        security: bearer,
        params: userTokenParamsSchema,
        response: { 200: envelopeOf(z.null()), 400: e, 401: e, 403: e, 404: e },
      },
    },
    async (request) => {
      const { userId, id } = request.params as { userId: number; id: number };
      const revoked = await inTenant(request, async (ctx) =>
        app.apiTokens.revoke(
          { accountRef: await tokenOwner(ctx, userId), tenantId: ctx.caller.tenantId },
          id,
          ctx.caller.accountRef,
          ctx.tx,
        ),
      );
      recordAudit(request, { target: `${userId} ${revoked.id}`, targetName: revoked.name });
      return ok(null);
    },
  );
}

const e = errorEnvelopeSchema;
const bearer = [{ bearer: [] }];

/** The account of a user of the caller's tenant whose tokens the caller may see and revoke. */
async function tokenOwner(ctx: Ctx, userId: number): Promise<number> {
  return (await userService.credentialTarget(ctx, userId)).accountRef;
}

/** The route options with declarations added to their config. */
const declare = (config: Record<string, unknown>, options: RouteShorthandOptions): RouteShorthandOptions => ({
  ...options,
  config: { ...options.config, ...config },
});

/** 409 answers naming a taken account number, phone or e-mail, per caller and window, before 429. */
export const TAKEN_PROBES = { limit: 20, windowMs: 10 * 60 * 1000 };

/**
 * Accounts are global, so a 409 on the user form tells the caller that an account number, phone or
 * e-mail exists in some tenant: the price of one account across tenants. Counted per caller once the
 * handler is done (outside the tenant transaction), so the form cannot be used to enumerate them.
 */
function limitTakenProbes(app: FastifyInstance) {
  const lockKey = (accountRef: number) => `taken-lock:${accountRef}`;
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' || !request.auth) return;
    if (await app.store.get(lockKey(request.auth.accountRef))) throw new AppError('rateLimited');
  });
  // counted before the answer leaves (the handler's transaction is over by then), so the caller's next
  // request already sees the count
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 409 || !request.auth) return payload;
    const { count, resetAt } = await app.store.incr(`taken-probe:${request.auth.accountRef}`, TAKEN_PROBES.windowMs);
    if (count >= TAKEN_PROBES.limit) await app.store.set(lockKey(request.auth.accountRef), '1', Math.max(1, resetAt - Date.now()));
    return payload;
  });
}
