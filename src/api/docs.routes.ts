import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import { DOCS_SCRIPT, DOCS_STYLES, DOCS_TITLE, VIGIL_MARK } from './docs.page.js';

/**
 * swagger-ui's policy ends with `upgrade-insecure-requests`, which makes a browser that reached
 * the page over plain HTTP by a host name (localhost and 127.0.0.1 are exempt) fetch its
 * scripts and styles over HTTPS, and find nothing: a blank page. Every asset is the server's
 * own, so over HTTPS the directive changes nothing; it goes, as from every other page
 * (http/headers.ts).
 */
export function withoutUpgradeInsecureRequests(policy: string): string {
  return policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .join('; ');
}

/**
 * The OpenAPI 3.1 document (generated from the route schemas by @fastify/swagger, which the
 * app registers before any route) and a reference page, both served locally, no CDN. The page
 * is Vigil's (docs.page.ts): its title, mark and bar, and the error codes after the operations.
 */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The page without a trailing slash links its assets by absolute path, which must include
    // the API prefix this plugin is registered under.
    indexPrefix: app.prefix,
    staticCSP: true,
    transformStaticCSP: withoutUpgradeInsecureRequests,
    theme: {
      title: DOCS_TITLE,
      favicon: [
        { filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: VIGIL_MARK },
      ],
      css: [{ filename: 'vigil.css', content: DOCS_STYLES }],
      js: [{ filename: 'vigil.js', content: DOCS_SCRIPT }],
    },
    // No logo to put in Swagger UI's bar: the plugin replaces the bar (undefined would put Fastify's).
    logo: null as never,
    uiConfig: {
      docExpansion: 'list',
      deepLinking: true,
      defaultModelsExpandDepth: 0,
      // Serialized into the page as source: they run in the browser, once every script has loaded.
      plugins: [
        // @ts-expect-error SwaggerUIBundle is the page's global, not this process's
        (system: unknown) => SwaggerUIBundle.plugins.DownloadUrl(system),
        // @ts-expect-error vigilDocsPlugin is defined by vigil.js (docs.page.ts)
        (system: unknown) => window.vigilDocsPlugin(system),
      ],
    },
  });
};
