import { Type } from '@sinclair/typebox';
import { NullableTimestamp, Timestamp } from '../../../core/http/admin-schemas.js';

/** Shapes of the MFA routes (own factors, the second step of sign-in, an owner's view). */

const b64 = (maxLength: number) => Type.String({ maxLength });

/**
 * A passkey's answer as `@simplewebauthn/browser` gives it (`RegistrationResponseJSON` or
 * `AuthenticationResponseJSON`): base64url fields, each bounded; checked by the server's
 * WebAuthn verification, never trusted before.
 */
export const PasskeyResponse = Type.Object(
  {
    id: b64(1024),
    rawId: b64(1024),
    type: Type.String({ maxLength: 32 }),
    response: Type.Object({
      clientDataJSON: b64(8192),
      attestationObject: Type.Optional(b64(16_384)),
      authenticatorData: Type.Optional(b64(8192)),
      signature: Type.Optional(b64(2048)),
      userHandle: Type.Optional(b64(1024)),
      publicKey: Type.Optional(b64(4096)),
      publicKeyAlgorithm: Type.Optional(Type.Integer()),
      transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 })),
    }),
    clientExtensionResults: Type.Optional(Type.Object({})),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { title: 'PasskeyResponse' },
);

/** Options for `navigator.credentials.create` / `.get` (`@simplewebauthn/browser` takes them as they are). */
export const PasskeyOptions = Type.Object(
  { challenge: Type.String() },
  { title: 'PasskeyOptions', additionalProperties: true },
);

export const MfaFactor = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('totp'), Type.Literal('passkey')]),
    name: Type.String(),
    created_at: Timestamp,
    last_used_at: NullableTimestamp,
  },
  { title: 'MfaFactor' },
);

export const MfaOverview = Type.Object(
  {
    factors: Type.Array(MfaFactor),
    recovery_codes_left: Type.Integer(),
    required: Type.Boolean({
      description: 'MFA is required of this user (their account’s or the operator’s setting)',
    }),
  },
  { title: 'MfaOverview' },
);

export const TotpEnrolment = Type.Object(
  {
    factor_id: Type.Integer(),
    secret: Type.String({ description: 'Base32, to type into an app that cannot scan the QR code' }),
    otpauth_url: Type.String(),
    qr_code: Type.String({ description: 'The otpauth URL as a QR code: an SVG data URL' }),
  },
  { title: 'TotpEnrolment' },
);

export const Enrolled = Type.Object(
  {
    factor: MfaFactor,
    recovery_codes: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'Ten one-time recovery codes with the first factor, shown this once; else null',
    }),
  },
  { title: 'MfaEnrolled' },
);

export const RecoveryCodes = Type.Object(
  { recovery_codes: Type.Array(Type.String()) },
  { title: 'RecoveryCodes' },
);

export const AccountMfa = Type.Object(
  {
    require_mfa: Type.Boolean({
      description: 'Every administrator of the account must have a second factor',
    }),
    required_by_operator: Type.Boolean({
      description: 'ADMIN_MFA_REQUIRED: the service requires it of everyone, whatever the account says',
    }),
    administrators: Type.Array(
      Type.Object({
        id: Type.Integer(),
        email: Type.String(),
        name: Type.String(),
        factors: Type.Integer({ description: 'How many second factors they have' }),
      }),
    ),
  },
  { title: 'AccountMfa' },
);
