import { postResource } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../../crud/register-resource';
import { postRepository } from './post.repository';

export async function postRoutes(app: FastifyInstance) {
  registerResource(app, postResource, postRepository);
}
