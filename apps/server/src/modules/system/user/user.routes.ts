import {
  apiTokenSchema,
  assignRolesSchema,
  idParamSchema,
  importResultSchema,
  resetPasswordSchema,
  userEntity,
  userIdParamSchema,
  userResource,
  userSchema,
  userTokenParamsSchema,
} from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { displayNameOf, recordAudit } from '../../../crud/audit';
import type { Ctx } from '../../../crud/context';
import { registerEntity } from '../../../crud/entity';
import { XLSX_TYPE } from '../../../crud/excel';
import { typedRoute } from '../../../crud/typed-route';
import { AppError } from '../../../errors';
import { tellFactorsRemoved } from '../../auth/mfa.service';
import { importUsers } from './user.import';
import { userService } from './user.service';

/** Users: the spec's exact calls through the machinery, plus reset password and role assignment. */
export async function userRoutes(app: FastifyInstance) {
  limitTakenProbes(app);
  registerEntity(app, userEntity, userService);

  // the sheet comes as the raw request body (Content-Type: the .xlsx type)
  app.addContentTypeParser(XLSX_TYPE, { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (_request, body, done) => done(null, body));
  typedRoute(
    app,
    userResource,
    {
      method: 'POST',
      url: userResource.paths.import,
      action: 'import',
      write: true,
      consumes: [XLSX_TYPE],
      accountIdentifiers: { use: 'new' },
      response: importResultSchema,
      summary: 'user: import from Excel',
    },
    async (ctx) => {
      const body = ctx.request.body;
      if (!Buffer.isBuffer(body)) throw new AppError('unsupportedMediaType');
      const result = await importUsers(ctx, body);
      recordAudit(ctx.request, { target: `${result.created} created, ${result.failed} failed` });
      return result;
    },
  );

  // setting a password signs an account in: a signed-in session only, never an API token
  typedRoute(
    app,
    userResource,
    {
      method: 'PUT',
      url: '/system/user/resetPwd/:id',
      action: 'resetPwd',
      write: true,
      sessionOnly: true,
      params: idParamSchema,
      body: resetPasswordSchema,
      response: z.null(),
      summary: 'user: reset password',
    },
    async (ctx, { params, body }) => {
      const user = await userService.resetPassword(ctx, params.id, body.password);
      recordAudit(ctx.request, { target: `${user.id} ${user.accountId}`, targetName: displayNameOf(user) });
      return null;
    },
  );

  // removing someone's second factor takes over their sign-in as a password reset does: the same
  // permission, and a signed-in session only
  typedRoute(
    app,
    userResource,
    {
      method: 'DELETE',
      url: '/system/user/mfa/:id',
      action: 'resetPwd',
      logAs: 'removeMfa',
      write: true,
      sessionOnly: true,
      params: idParamSchema,
      response: z.object({ removed: z.boolean() }),
      summary: 'user: remove the second factor (authenticator app and recovery codes); the user is told by mail',
    },
    async (ctx, { params }) => {
      const { user, removed } = await userService.removeFactors(ctx, params.id);
      recordAudit(ctx.request, { target: `${user.id} ${user.accountId}`, targetName: displayNameOf(user), after: { removed } });
      const { email } = user;
      if (removed && email) ctx.afterCommit(() => tellFactorsRemoved(app, ctx.request, email, user.accountId, ctx.caller.accountId));
      return { removed };
    },
  );

  typedRoute(
    app,
    userResource,
    {
      method: 'PUT',
      url: '/system/user/authRole/:id',
      action: 'grant',
      write: true,
      params: idParamSchema,
      body: assignRolesSchema,
      response: userSchema,
      summary: 'user: assign roles',
    },
    async (ctx, { params, body }) => {
      const { before, after } = await userService.assignRoles(ctx, params.id, body.roleIds);
      recordAudit(ctx.request, {
        target: `${after.id} ${after.accountId}`,
        targetName: displayNameOf(after),
        before: { roleIds: before },
        after: { roleIds: after.roleIds },
      });
      return after;
    },
  );

  // another user's API tokens: listed and revoked under the password reset's permission and rule (the
  // caller holds at least what the user holds), as taking over an account's credentials is
  typedRoute(
    app,
    userResource,
    {
      method: 'GET',
      url: '/system/user/:userId/token',
      action: 'resetPwd',
      params: userIdParamSchema,
      response: z.array(apiTokenSchema),
      summary: "user: a user's personal API tokens in this tenant (never the token)",
      description: 'Errors: 403 a user holding more than the caller; 404 no such user here.',
    },
    async (ctx, { params }) =>
      app.apiTokens.list({ accountRef: await tokenOwner(ctx, params.userId), tenantId: ctx.caller.tenantId }, ctx.tx),
  );

  typedRoute(
    app,
    userResource,
    {
      method: 'DELETE',
      url: '/system/user/:userId/token/:id',
      action: 'resetPwd',
      logAs: 'revokeToken',
      write: true,
      params: userTokenParamsSchema,
      response: z.null(),
      summary: "user: revokes one of a user's API tokens (refused from the next request on, on every instance)",
      description: 'Errors: 403 a user holding more than the caller; 404 no such user here, or not their token.',
    },
    async (ctx, { params }) => {
      const owner = { accountRef: await tokenOwner(ctx, params.userId), tenantId: ctx.caller.tenantId };
      const revoked = await app.apiTokens.revoke(owner, params.id, ctx.caller.accountRef, ctx.tx);
      recordAudit(ctx.request, { target: `${params.userId} ${revoked.id}`, targetName: revoked.name });
      return null;
    },
  );
}

/** The account of a user of the caller's tenant whose tokens the caller may see and revoke. */
async function tokenOwner(ctx: Ctx, userId: number): Promise<number> {
  return (await userService.credentialTarget(ctx, userId)).accountRef;
}

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
