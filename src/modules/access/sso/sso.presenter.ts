import type { SsoConnection } from './sso.model.js';
import { ssoUrls } from './sso.model.js';
import { describeCertificate } from './sso.saml-metadata.service.js';

/** An account's SSO connection as its settings page shows it: never the client secret. */
export function presentConnection(connection: SsoConnection) {
  return {
    protocol: connection.protocol,
    enabled: connection.enabled,
    allowed_domains: connection.allowedDomains,
    groups_claim: connection.groupsClaim,
    role_mapping: connection.roleMapping,
    oidc: connection.oidc
      ? {
          issuer: connection.oidc.issuer,
          client_id: connection.oidc.clientId,
          client_secret_set: connection.oidc.sealedSecret !== null,
          acr_values: connection.oidc.acrValues,
        }
      : null,
    saml: connection.saml
      ? {
          idp_entity_id: connection.saml.entityId,
          idp_sso_url: connection.saml.ssoUrl,
          idp_certificates: connection.saml.certificates.map(describeCertificate),
        }
      : null,
    updated_at: new Date(connection.updatedAt).toISOString(),
  };
}

/** What the IdP is given for this account (the same whatever the protocol). */
export function presentServiceProvider(baseUrl: string, accountId: number) {
  const urls = ssoUrls(baseUrl, accountId);
  return {
    oidc_redirect_uri: urls.oidcRedirect,
    saml_entity_id: urls.samlEntityId,
    saml_acs_url: urls.samlAcs,
    saml_metadata_url: urls.samlMetadata,
    login_url: urls.login,
  };
}
