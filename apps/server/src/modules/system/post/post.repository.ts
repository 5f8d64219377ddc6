import type { CreatePostInput, ListQueryOf, postResource, Status } from '@atrium/contracts';
import { and, count, eq, ne } from 'drizzle-orm';
import { conflict, refused, rethrowUnique } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { contains, isoDates, orderOf, pageOffset } from '../../../crud/query';
import { oneAtATime } from '../../../db/client';
import { posts, userPosts } from '../../../db/schema';

type PostQuery = ListQueryOf<typeof postResource>;
const sortColumns = { orderNum: posts.orderNum, code: posts.code, name: posts.name, createTime: posts.createTime };
const toPost = (row: typeof posts.$inferSelect) => {
  const { tenantId: _tenant, ...rest } = isoDates(row);
  return { ...rest, status: rest.status as Status };
};

async function assertCodeFree(ctx: Ctx, code: string, exceptId?: number) {
  const [taken] = await ctx.tx
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.tenantId, ctx.caller.tenantId), eq(posts.code, code), exceptId ? ne(posts.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw conflict('code');
}

export const postRepository = {
  async list(ctx: Ctx, q: PostQuery) {
    const where = allOf(
      eq(posts.tenantId, ctx.caller.tenantId),
      contains(posts.code, q.code),
      contains(posts.name, q.name),
      q.status ? eq(posts.status, q.status) : undefined,
    );
    const [rows, [total]] = await oneAtATime([
      ctx.tx
        .select()
        .from(posts)
        .where(where)
        .orderBy(...orderOf(q.sort, sortColumns, posts.id))
        .limit(pageOffset(q).limit)
        .offset(pageOffset(q).offset),
      ctx.tx.select({ n: count() }).from(posts).where(where),
    ]);
    return { list: rows.map(toPost), total: total?.n ?? 0 };
  },

  async get(ctx: Ctx, id: number) {
    const [row] = await ctx.tx
      .select()
      .from(posts)
      .where(and(eq(posts.tenantId, ctx.caller.tenantId), eq(posts.id, id)));
    return row ? toPost(row) : null;
  },

  async create(ctx: Ctx, input: CreatePostInput) {
    await assertCodeFree(ctx, input.code);
    const by = ctx.caller.accountId;
    const [row] = await ctx.tx
      .insert(posts)
      .values({ ...input, remark: input.remark ?? null, tenantId: ctx.caller.tenantId, createBy: by, updateBy: by })
      .returning()
      .catch((e) => rethrowUnique(e, { posts_code_key: 'code' }));
    return toPost(row!);
  },

  async update(ctx: Ctx, id: number, input: CreatePostInput) {
    await assertCodeFree(ctx, input.code, id);
    const [row] = await ctx.tx
      .update(posts)
      .set({ ...input, remark: input.remark ?? null, updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(eq(posts.tenantId, ctx.caller.tenantId), eq(posts.id, id)))
      .returning()
      .catch((e) => rethrowUnique(e, { posts_code_key: 'code' }));
    return toPost(row!);
  },

  async setStatus(ctx: Ctx, id: number, status: Status) {
    const [row] = await ctx.tx
      .update(posts)
      .set({ status, updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(eq(posts.tenantId, ctx.caller.tenantId), eq(posts.id, id)))
      .returning();
    return toPost(row!);
  },

  async remove(ctx: Ctx, id: number) {
    const [used] = await ctx.tx
      .select({ n: count() })
      .from(userPosts)
      .where(and(eq(userPosts.tenantId, ctx.caller.tenantId), eq(userPosts.postId, id)));
    if ((used?.n ?? 0) > 0) throw refused('id', 'inUse', 'post.inUse', { count: used?.n ?? 0 });
    await ctx.tx.delete(posts).where(and(eq(posts.tenantId, ctx.caller.tenantId), eq(posts.id, id)));
  },
};
