import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';

/**
 * The OpenAPI 3.1 document (generated from the route schemas by @fastify/swagger, which the
 * app registers before any route) and a reference page, both served locally, no CDN.
 */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The page without a trailing slash links its assets by absolute path, which must include
    // the API prefix this plugin is registered under.
    indexPrefix: app.prefix,
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
  });
};
