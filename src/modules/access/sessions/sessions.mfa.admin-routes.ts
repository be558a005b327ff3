import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { validationFailed } from '../../../core/errors.js';
import { sessionOf } from '../../../core/http/admin-request.js';
import { Body, responses, SignedIn } from '../../../core/http/admin-schemas.js';
import { FORM_BODY_LIMIT, jsonBody } from '../../../core/http/bodies.js';
import { presentUser } from '../admins/admins.presenter.js';
import { PasskeyOptions, PasskeyResponse } from '../mfa/mfa.admin-schemas.js';
import { relyingPartyOf } from '../mfa/mfa.relying-party.service.js';
import { passkeyAuthenticationOptions, type SecondStepProof } from '../mfa/mfa.service.js';
import { csrfTokenFor, sendSignedIn } from './sessions.cookie.service.js';
import type { AdminOptions } from './sessions.options.model.js';
import { completeSecondStep, finishRequiredEnrolment } from './sessions.service.js';

const SMALL_JSON = jsonBody(FORM_BODY_LIMIT);

/** The second step of a local sign-in, and the end of a required first enrolment. */
export const sessionsMfaAdminRoutes: FastifyPluginAsyncTypebox<AdminOptions> = async (app, options) => {
  app.post(
    '/session/mfa/passkey-options',
    {
      schema: {
        tags: ['Session'],
        summary:
          'Second step of sign-in with a passkey: the options for `navigator.credentials.get` (a challenge for this session, valid 5 minutes, used once)',
        response: responses({ 200: PasskeyOptions }),
      },
      config: { adminPermission: 'signed-in', mfaPending: ['verify'], body: SMALL_JSON },
    },
    async (request) => {
      const session = sessionOf(request);
      return passkeyAuthenticationOptions(app.db, session.admin, session.idHash, relyingPartyOf(request));
    },
  );

  app.post(
    '/session/mfa',
    {
      schema: {
        tags: ['Session'],
        summary:
          'Second step of sign-in: exactly one of a TOTP code, a recovery code (each works once) or a passkey’s answer. The waiting session ends and a full one starts (new cookie and CSRF token). 401 `invalid_mfa_code`; 429 (Retry-After) when throttled like the password',
        body: Body({
          totp_code: Type.Optional(Type.String({ maxLength: 32 })),
          recovery_code: Type.Optional(Type.String({ maxLength: 64 })),
          passkey: Type.Optional(PasskeyResponse),
        }),
        response: responses({ 200: SignedIn }),
      },
      config: { adminPermission: 'signed-in', mfaPending: ['verify'], body: SMALL_JSON },
    },
    async (request, reply) => {
      const { totp_code, recovery_code, passkey } = request.body;
      const given = [totp_code, recovery_code, passkey].filter((v) => v !== undefined).length;
      if (given !== 1) {
        throw validationFailed({ totp_code: ['give exactly one of totp_code, recovery_code or passkey'] });
      }
      const proof = (
        totp_code !== undefined
          ? { totp_code }
          : recovery_code !== undefined
            ? { recovery_code }
            : { passkey }
      ) as SecondStepProof;
      const signedIn = await completeSecondStep(app.db, {
        session: sessionOf(request),
        proof,
        box: app.secretBox,
        rp: relyingPartyOf(request),
        clientAddress: request.ip,
        userAgent: request.headers['user-agent'],
        throttle: options.throttle,
        lifetime: options.lifetime,
      });
      return sendSignedIn(reply, signedIn, options.lifetime);
    },
  );

  app.post(
    '/session/mfa/enrolled',
    {
      schema: {
        tags: ['Session'],
        summary:
          'Ends a required first enrolment: once the user has a factor, their session becomes a full one (new cookie and CSRF token). 409 `mfa_enrolment_required` before',
        response: responses({ 200: SignedIn }),
      },
      config: { adminPermission: 'signed-in', mfaPending: ['enrol'], body: SMALL_JSON },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const signedIn = await finishRequiredEnrolment(app.db, {
        session,
        lifetime: options.lifetime,
        clientAddress: request.ip,
        userAgent: request.headers['user-agent'],
      });
      if (signedIn) return sendSignedIn(reply, signedIn, options.lifetime);
      // Already a full session: it stays as it is.
      return {
        user: presentUser(session.admin),
        csrf_token: csrfTokenFor(reply, session.idHash),
        mfa_pending: null,
      };
    },
  );
};
