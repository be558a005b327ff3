import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sessionOf } from '../../../core/http/admin-request.js';
import { Body, NoContent, PathId, responses } from '../../../core/http/admin-schemas.js';
import { FORM_BODY_LIMIT, jsonBody } from '../../../core/http/bodies.js';
import {
  Enrolled,
  MfaFactor,
  MfaOverview,
  PasskeyOptions,
  PasskeyResponse,
  RecoveryCodes,
  TotpEnrolment,
} from './mfa.admin-schemas.js';
import { presentFactor } from './mfa.presenter.js';
import { relyingPartyOf } from './mfa.relying-party.service.js';
import {
  confirmTotpEnrolment,
  type Enrolled as EnrolledResult,
  factorsOverview,
  passkeyRegistrationOptions,
  regenerateRecoveryCodes,
  registerPasskey,
  removeOwnFactor,
  renameOwnFactor,
  startTotpEnrolment,
} from './mfa.service.js';

const tags = ['Sign-in security'];
const SMALL_JSON = jsonBody(FORM_BODY_LIMIT);
/** Enrolling is what a session that must enrol a first factor may do (a full session may too). */
const ENROL = { adminPermission: 'signed-in', mfaPending: ['enrol'] as const, body: SMALL_JSON };
const FactorParams = Type.Object({ factorId: PathId });

const presentEnrolled = (enrolled: EnrolledResult) => ({
  factor: presentFactor(enrolled.factor),
  recovery_codes: enrolled.recoveryCodes,
});

/** The signed-in user's own second factors: list, enrol (TOTP, passkeys), rename, remove, recovery codes. */
export const mfaAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const required = () => app.config.admin.mfaRequired;

  app.get(
    '/mfa',
    {
      schema: {
        tags,
        summary:
          "The signed-in user's second factors, their recovery codes left, and whether MFA is required of them",
        response: responses({ 200: MfaOverview }),
      },
      config: { adminPermission: 'signed-in', mfaPending: ['enrol'] },
    },
    async (request) => {
      const overview = await factorsOverview(app.db, sessionOf(request).admin, required());
      return {
        factors: overview.factors.map(presentFactor),
        recovery_codes_left: overview.recoveryCodesLeft,
        required: overview.required,
      };
    },
  );

  app.post(
    '/mfa/totp',
    {
      schema: {
        tags,
        summary:
          'Starts enrolling an authenticator app: a new secret, as a QR code and as text. Confirm it with its first code',
        response: responses({ 200: TotpEnrolment }),
      },
      config: ENROL,
    },
    async (request) => {
      const enrolment = await startTotpEnrolment(app.db, app.secretBox, sessionOf(request).admin);
      return {
        factor_id: enrolment.factorId,
        secret: enrolment.secret,
        otpauth_url: enrolment.otpauthUrl,
        qr_code: enrolment.qrCode,
      };
    },
  );

  app.post(
    '/mfa/totp/confirm',
    {
      schema: {
        tags,
        summary:
          'Confirms an authenticator app with its current code; the first factor brings ten recovery codes, shown this once',
        body: Body({
          factor_id: Type.Integer(),
          code: Type.String({ maxLength: 32 }),
          name: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: responses({ 200: Enrolled }),
      },
      config: ENROL,
    },
    async (request) =>
      presentEnrolled(
        await confirmTotpEnrolment(app.db, app.secretBox, sessionOf(request).admin, request.body),
      ),
  );

  app.post(
    '/mfa/passkeys/options',
    {
      schema: {
        tags,
        summary:
          'Starts adding a passkey or security key: the options for `navigator.credentials.create` (a challenge for this session, valid 5 minutes, used once)',
        response: responses({ 200: PasskeyOptions }),
      },
      config: ENROL,
    },
    async (request) => {
      const session = sessionOf(request);
      return passkeyRegistrationOptions(app.db, session.admin, session.idHash, relyingPartyOf(request));
    },
  );

  app.post(
    '/mfa/passkeys',
    {
      schema: {
        tags,
        summary:
          'Adds the passkey the browser created for the challenge of `/mfa/passkeys/options`; the first factor brings ten recovery codes',
        body: Body({ name: Type.Optional(Type.String({ maxLength: 200 })), response: PasskeyResponse }),
        response: responses({ 200: Enrolled }),
      },
      config: ENROL,
    },
    async (request) => {
      const session = sessionOf(request);
      return presentEnrolled(
        await registerPasskey(app.db, session.admin, session.idHash, relyingPartyOf(request), request.body),
      );
    },
  );

  app.patch(
    '/mfa/factors/:factorId',
    {
      schema: {
        tags,
        summary: 'Renames one of the signed-in user’s second factors',
        params: FactorParams,
        body: Body({ name: Type.String({ maxLength: 200 }) }),
        response: responses({ 200: MfaFactor }),
      },
      config: { adminPermission: 'signed-in', body: SMALL_JSON },
    },
    async (request) =>
      presentFactor(
        await renameOwnFactor(app.db, sessionOf(request).admin, request.params.factorId, request.body.name),
      ),
  );

  app.delete(
    '/mfa/factors/:factorId',
    {
      schema: {
        tags,
        summary:
          'Removes one of the signed-in user’s second factors; 409 `last_mfa_factor` for the last one when MFA is required of them',
        params: FactorParams,
        response: responses({ 204: NoContent }),
      },
      config: { adminPermission: 'signed-in', body: SMALL_JSON },
    },
    async (request, reply) => {
      await removeOwnFactor(app.db, sessionOf(request).admin, request.params.factorId, required());
      return reply.code(204).send();
    },
  );

  app.post(
    '/mfa/recovery-codes',
    {
      schema: {
        tags,
        summary: 'Ten new recovery codes, shown this once; the earlier ones stop working',
        response: responses({ 200: RecoveryCodes }),
      },
      config: { adminPermission: 'signed-in', body: SMALL_JSON },
    },
    async (request) => ({ recovery_codes: await regenerateRecoveryCodes(app.db, sessionOf(request).admin) }),
  );
};
