import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from '../core/errors.js';
import { fromProjectRoot } from '../core/paths.js';

// Built by `npm run build` (web/build.mjs).
const WEB_ROOT = fromProjectRoot('dist', 'web');

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
    // web/build.mjs writes .br and .gz copies of each text asset.
    preCompressed: true,
  });

  // Read at every request (it is small and the OS caches it): after a rebuild, a running
  // server serves the new page, whose asset names match the files now on disk.
  const page = async (_request: unknown, reply: FastifyReply) => {
    const html = await readFile(indexPath, 'utf8').catch(() => null);
    if (html === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web interface is not built: run `npm run build`.\n');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };
  // The app's pages are not part of the Customer API document.
  app.get('/', { schema: { hide: true } }, page);
  // The pages behind one-time links (web/src/app.tsx): the token in the address makes an
  // administrator, so these routes declare it and no log line shows it.
  for (const path of ['/setup/:token', '/invite/:token']) {
    app.get(path, { schema: { hide: true }, config: { secretParams: ['token'] } }, page);
  }
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    // An unknown admin API path is a JSON 404, not the app's page.
    if (request.url.startsWith('/admin/api/') || request.url === '/admin/api') throw notFound();
    return page(request, reply);
  });
}
