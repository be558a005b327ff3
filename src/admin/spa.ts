import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.js';

// Built by `npm run build` (web/build.mjs) into dist/web, two levels above both src/admin and dist/admin.
const WEB_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/web');

/**
 * The web interface's files: hashed assets under /admin/assets/ (cached for a year), and
 * index.html for every other page of the app, so links into it can be opened directly.
 */
export async function spaRoutes(app: FastifyInstance): Promise<void> {
  const indexPath = join(WEB_ROOT, 'index.html');
  await app.register(fastifyStatic, {
    root: join(WEB_ROOT, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    index: false,
    wildcard: true,
  });

  let indexHtml: string | undefined;
  const page = async (_request: unknown, reply: import('fastify').FastifyReply) => {
    if (indexHtml === undefined) {
      if (!existsSync(indexPath)) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The web interface is not built: run `npm run build`.\n');
      }
      indexHtml = readFileSync(indexPath, 'utf8');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  };
  // The app's pages are not part of the Customer API document.
  app.get('/', { schema: { hide: true } }, page);
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    // An unknown admin API path is a JSON 404, not the app's page.
    if (request.url.startsWith('/admin/api/') || request.url === '/admin/api') throw notFound();
    return page(request, reply);
  });
}
