import { Type } from '@sinclair/typebox';
import { Body } from '../../../core/http/admin-schemas.js';

const Role = Type.Union(
  ['administrator', 'campaign_manager', 'triage_analyst', 'auditor'].map((r) => Type.Literal(r)),
);

export const RoleMapping = Type.Array(
  Type.Object({ group: Type.String(), role: Type.String() }, { additionalProperties: false }),
  {
    maxItems: 50,
  },
);

export const SsoConnectionView = Type.Object(
  {
    protocol: Type.Union([Type.Literal('oidc'), Type.Literal('saml')]),
    enabled: Type.Boolean(),
    allowed_domains: Type.Array(Type.String()),
    groups_claim: Type.Union([Type.String(), Type.Null()]),
    role_mapping: Type.Array(Type.Object({ group: Type.String(), role: Role })),
    oidc: Type.Union([
      Type.Object({
        issuer: Type.String(),
        client_id: Type.String(),
        client_secret_set: Type.Boolean({ description: 'The secret itself is never returned.' }),
        acr_values: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ]),
    saml: Type.Union([
      Type.Object({
        idp_entity_id: Type.String(),
        idp_sso_url: Type.String(),
        idp_certificates: Type.Array(
          Type.Object({ subject: Type.String(), not_after: Type.String(), sha256: Type.String() }),
        ),
      }),
      Type.Null(),
    ]),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'SsoConnection' },
);

export const ServiceProvider = Type.Object(
  {
    oidc_redirect_uri: Type.String({ description: 'The redirect URI to register with an OpenID Provider.' }),
    saml_entity_id: Type.String(),
    saml_acs_url: Type.String(),
    saml_metadata_url: Type.String(),
    login_url: Type.String({ description: 'Starts a sign-in through this account’s IdP.' }),
  },
  { title: 'SsoServiceProvider' },
);

export const SsoSettings = Type.Object(
  {
    connection: Type.Union([SsoConnectionView, Type.Null()]),
    service_provider: ServiceProvider,
    sso_only: Type.Boolean(),
    default_role: Role,
    owners: Type.Array(
      Type.Object({
        id: Type.Integer(),
        email: Type.String(),
        name: Type.String(),
        break_glass: Type.Boolean(),
        has_mfa: Type.Boolean(),
      }),
    ),
  },
  { title: 'SsoSettings' },
);

export const SsoBody = Body({
  protocol: Type.String(),
  enabled: Type.Optional(Type.Boolean()),
  allowed_domains: Type.Array(Type.String({ maxLength: 300 }), { maxItems: 50 }),
  groups_claim: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  role_mapping: Type.Optional(RoleMapping),
  oidc: Type.Optional(
    Type.Union([
      Type.Object(
        {
          issuer: Type.String({ maxLength: 2000 }),
          client_id: Type.String({ maxLength: 500 }),
          client_secret: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
          acr_values: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  ),
  saml: Type.Optional(
    Type.Union([
      Type.Object(
        {
          metadata_xml: Type.Optional(Type.Union([Type.String({ maxLength: 262144 }), Type.Null()])),
          metadata_url: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  ),
});

export const SignInSettingsBody = Body({
  sso_only: Type.Optional(Type.Boolean()),
  default_role: Type.Optional(Type.String()),
});

export const SignInSettings = Type.Object(
  { sso_only: Type.Boolean(), default_role: Role },
  { title: 'SsoSignInSettings' },
);

export const BreakGlassBody = Body({ break_glass: Type.Boolean() });

export const BreakGlass = Type.Object(
  { id: Type.Integer(), email: Type.String(), break_glass: Type.Boolean() },
  { title: 'BreakGlassOwner' },
);

export const SamlMetadataFile = Type.Unsafe<string>({
  description: 'SAML 2.0 service-provider metadata (attachment), XML.',
  content: { 'application/samlmetadata+xml': { schema: Type.String() } },
});
