import { postEntity } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { registerTable } from '../../crud/entity';
import { posts, userPosts } from '../../db/schema';

/** The system entities on the manifest machinery: contract + table + a registration each. */
export async function systemEntityRoutes(app: FastifyInstance) {
  registerTable(app, postEntity, posts, {
    unique: { code: 'posts_code_key' },
    references: [{ column: userPosts.postId, tenant: userPosts.tenantId, reason: 'post.inUse' }],
  });
}
