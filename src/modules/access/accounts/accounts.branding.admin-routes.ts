import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountOf } from '../../../core/http/admin-request.js';
import { AccountParams, NoContent, responses } from '../../../core/http/admin-schemas.js';
import { jsonBody, KIB, UNUSED_BODY_LIMIT } from '../../../core/http/bodies.js';
import {
  AccountSettings,
  AccountSettingsBody,
  LogoFile,
  LogoUpload,
} from './accounts.branding.admin-schemas.js';
import { LOGO_MAX_BYTES, LOGO_UPLOAD_TYPES } from './accounts.branding.model.js';
import {
  getAccountLogo,
  getAccountSettings,
  removeAccountLogo,
  setAccountDisplayName,
  setAccountLogo,
} from './accounts.branding.service.js';
import { presentAccountSettings } from './accounts.presenter.js';

const tags = ['Account settings'];

/**
 * What employees see of the account, set by its administrators: the display name and the logo.
 * The logo is untrusted bytes: accepted only as PNG, JPEG or WebP by its own signature, at most
 * 256 KiB, and served back with the type its bytes have, `nosniff` and a CSP that runs nothing.
 */
export const accountBrandingAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A logo's bytes as they came: read whole (at most LOGO_MAX_BYTES, checked before reading), sniffed by the service.
  app.addContentTypeParser(
    [...LOGO_UPLOAD_TYPES],
    { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/settings',
    {
      config: { adminPermission: 'account:read' },
      schema: {
        tags,
        summary: 'What employees see of the account: display name and logo',
        params: AccountParams,
        response: responses({ 200: AccountSettings }),
      },
    },
    async (request) => presentAccountSettings(await getAccountSettings(app.db, accountOf(request).accountId)),
  );

  app.patch(
    '/settings',
    {
      schema: {
        tags,
        summary: 'Sets the name employees see (empty: the account’s name)',
        params: AccountParams,
        body: AccountSettingsBody,
        response: responses({ 200: AccountSettings }),
      },
      config: { adminPermission: 'account:write', body: jsonBody(4 * KIB) },
    },
    async (request) =>
      presentAccountSettings(await setAccountDisplayName(app.db, accountOf(request).accountId, request.body)),
  );

  app.put(
    '/settings/logo',
    {
      schema: {
        tags,
        summary: 'Uploads the logo employees see (PNG, JPEG or WebP; at most 256 KiB)',
        description:
          'The body is the image itself, sent with its media type. Its bytes decide what it is: an SVG, or anything else sent as an image, is refused.',
        params: AccountParams,
        // The document's request body names the image types, not JSON.
        consumes: [...LOGO_UPLOAD_TYPES],
        body: LogoUpload,
        response: responses({ 200: AccountSettings }),
      },
      config: {
        adminPermission: 'account:write',
        body: { accepts: Object.fromEntries(LOGO_UPLOAD_TYPES.map((type) => [type, LOGO_MAX_BYTES])) },
      },
    },
    async (request) =>
      presentAccountSettings(
        await setAccountLogo(app.db, accountOf(request).accountId, request.body as unknown as Buffer),
      ),
  );

  app.get(
    '/settings/logo',
    {
      config: { adminPermission: 'account:read' },
      schema: {
        tags,
        summary: 'The logo, as employees see it',
        params: AccountParams,
        response: responses({ 200: LogoFile }),
      },
    },
    async (request, reply) => {
      const logo = await getAccountLogo(app.db, accountOf(request).accountId);
      // The type its bytes were found to be; nothing in it may run or be read as another type.
      return reply
        .header('Content-Type', logo.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Content-Disposition', 'inline; filename="logo"')
        .header('Cache-Control', 'private, no-cache')
        .header('ETag', `"${logo.sha256}"`)
        .send(logo.bytes);
    },
  );

  app.delete(
    '/settings/logo',
    {
      schema: {
        tags,
        summary: 'Removes the logo',
        params: AccountParams,
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'account:write', body: jsonBody(UNUSED_BODY_LIMIT) },
    },
    async (request, reply) => {
      await removeAccountLogo(app.db, accountOf(request).accountId);
      return reply.code(204).send();
    },
  );
};
