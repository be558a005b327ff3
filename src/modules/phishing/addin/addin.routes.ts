import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { publicBaseUrl } from '../../../core/http/links.js';
import {
  type ManifestProps,
  PACKAGE_ICONS,
  unifiedManifest,
  xmlManifest,
} from './addin.manifests.presenter.js';
import { ADDIN_PREFIX, addinIdOf, ICON_SIZES } from './addin.model.js';
import { storedZip } from './addin.package.presenter.js';
import { ReportKeyQuery, TaskpaneQuery } from './addin.schemas.js';
import { accountOfReportKey, addinFile, taskpaneScript } from './addin.service.js';
import { reportEndpoint, taskpaneHeaders, taskpanePage } from './addin.taskpane.presenter.js';

/**
 * The Outlook add-in, served to Outlook and to administrators without a session or an API key
 * (docs/outlook-add-in.md): the two manifests (and the unified one's package) for a report key,
 * the task pane, its script and the icons. A manifest is made only for an active key that holds
 * `reports:write` alone; any other key is a 404 in the contract's shape. The key in an address
 * is a credential: no log line shows it (`secretQuery`). GETs only: no route reads a body.
 */

/** Answers that carry the key (manifests, the pane): never cached or passed on as a referrer. */
const NOT_KEPT = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
} as const;
/** Outlook loads the icons from its own origin: they are public and may be cached a day. */
const ICON_HEADERS = {
  'content-type': 'image/png',
  'cache-control': 'public, max-age=86400',
  'cross-origin-resource-policy': 'cross-origin',
} as const;
const WITH_KEY = { secretQuery: ['key'] };

const download = (reply: FastifyReply, type: string, name: string) =>
  reply.headers({
    ...NOT_KEPT,
    'content-type': type,
    'content-disposition': `attachment; filename="${name}"`,
  });

export const outlookAddinRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const manifestProps = async (key: string): Promise<ManifestProps> => {
    const accountId = await accountOfReportKey(app.db, key);
    const base = publicBaseUrl(app);
    return { id: addinIdOf(base, accountId), base, key };
  };
  const unifiedPackage = async (props: ManifestProps) =>
    storedZip([
      { name: 'manifest.json', data: Buffer.from(JSON.stringify(unifiedManifest(props), null, 2)) },
      { name: PACKAGE_ICONS.color, data: await addinFile('icon-192.png') },
      { name: PACKAGE_ICONS.outline, data: await addinFile('outline-32.png') },
    ]);

  app.get(
    `${ADDIN_PREFIX}/manifest.xml`,
    { schema: { hide: true, querystring: ReportKeyQuery }, config: WITH_KEY },
    async (request, reply) => {
      const manifest = xmlManifest(await manifestProps(request.query.key));
      return download(reply, 'application/xml; charset=utf-8', 'vigil-report-phishing.xml').send(manifest);
    },
  );

  app.get(
    `${ADDIN_PREFIX}/manifest.json`,
    { schema: { hide: true, querystring: ReportKeyQuery }, config: WITH_KEY },
    async (request, reply) => {
      const manifest = unifiedManifest(await manifestProps(request.query.key));
      return download(reply, 'application/json; charset=utf-8', 'manifest.json').send(
        `${JSON.stringify(manifest, null, 2)}\n`,
      );
    },
  );

  app.get(
    `${ADDIN_PREFIX}/package.zip`,
    { schema: { hide: true, querystring: ReportKeyQuery }, config: WITH_KEY },
    async (request, reply) => {
      const zip = await unifiedPackage(await manifestProps(request.query.key));
      return download(reply, 'application/zip', 'vigil-report-phishing.zip').send(zip);
    },
  );

  app.get(
    `${ADDIN_PREFIX}/taskpane.html`,
    { schema: { hide: true, querystring: TaskpaneQuery }, config: WITH_KEY },
    async (_request, reply) => {
      const base = publicBaseUrl(app);
      reply.removeHeader('x-frame-options');
      return reply.headers(taskpaneHeaders(base)).send(taskpanePage(reportEndpoint(base, app.apiPrefix)));
    },
  );

  app.get(`${ADDIN_PREFIX}/addin.js`, { schema: { hide: true } }, async (_r, reply) => {
    const script = await taskpaneScript();
    if (script === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web interface is not built: run `npm run build`.\n');
    }
    return reply
      .headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' })
      .send(script);
  });

  for (const size of ICON_SIZES) {
    app.get(`${ADDIN_PREFIX}/icon-${size}.png`, { schema: { hide: true } }, async (_r, reply) =>
      reply.headers(ICON_HEADERS).send(await addinFile(`icon-${size}.png`)),
    );
  }
};
