import { expect } from 'vitest';
import { newSigningKey } from '../saml-idp.js';
import { na, type Row, row } from './matrix.js';
import type { Side } from './world.js';

/**
 * Single sign-on's admin routes (owner-only, `security:write`): each acts on the account in its
 * path only, so another account's path is a 404 like a nonexistent account's.
 */

const API = '/admin/api';
const acct = (side: Side) => `${API}/accounts/${side.accountId}`;

let metadata: string | undefined;
/** An IdP's SAML metadata to paste (a real certificate, made once). */
function idpMetadata(): string {
  if (!metadata) {
    const base64 = newSigningKey()
      .certificate.replace(/-----[A-Z ]+-----/g, '')
      .replace(/\s+/g, '');
    metadata =
      '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.example.com/metadata">' +
      '<IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
      `<KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${base64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></KeyDescriptor>` +
      '<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>' +
      '</IDPSSODescriptor></EntityDescriptor>';
  }
  return metadata;
}

const samlPayload = () => ({
  protocol: 'saml',
  enabled: false,
  allowed_domains: ['example.com'],
  saml: { metadata_xml: idpMetadata() },
});
const ssoView = (body: unknown) => body as { connection: unknown; sso_only: boolean; default_role: string };

export const adminSsoRows: Row[] = [
  row({
    route: `GET ${API}/accounts/:accountId/sso`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/sso` }),
    success: {
      status: 200,
      check: (res, side) =>
        expect(res.json().service_provider.login_url).toContain(`/sso/${side.accountId}/login`),
    },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/sso`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/sso`, payload: samlPayload() }),
    success: {
      status: 200,
      check: (res) => expect(res.json().saml.idp_entity_id).toBe('https://idp.example.com/metadata'),
    },
    read: (side) => ({ url: `${acct(side)}/sso`, view: ssoView }),
    otherAccount: { kind: 'account' },
    invalid: {
      call: (side) => ({
        url: `${acct(side)}/sso`,
        payload: { protocol: 'ldap', allowed_domains: ['example.com'] },
      }),
    },
  }),
  row({
    route: `DELETE ${API}/accounts/:accountId/sso`,
    as: 'admin',
    object: async (w, side) => {
      await w.app.inject({
        method: 'PUT',
        url: `${acct(side)}/sso`,
        headers: side.admin.headers,
        payload: samlPayload(),
      });
      return side.accountId;
    },
    call: (side) => ({ url: `${acct(side)}/sso` }),
    success: { status: 204 },
    read: (side) => ({ url: `${acct(side)}/sso`, view: ssoView }),
    otherAccount: { kind: 'account' },
    invalid: na('no input but the path'),
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/sso/sign-in`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/sso/sign-in`, payload: { default_role: 'auditor' } }),
    success: { status: 200, check: (res) => expect(res.json().default_role).toBe('auditor') },
    read: (side) => ({ url: `${acct(side)}/sso`, view: ssoView }),
    otherAccount: { kind: 'account' },
    invalid: { call: (side) => ({ url: `${acct(side)}/sso/sign-in`, payload: { default_role: 'owner' } }) },
  }),
  row({
    route: `PUT ${API}/accounts/:accountId/sso/break-glass/:id`,
    as: 'admin',
    object: (_w, side) => side.admin.user.id,
    // Named break-glass (they are not yet): the change the audit log records.
    call: (side, id) => ({ url: `${acct(side)}/sso/break-glass/${id}`, payload: { break_glass: true } }),
    success: { status: 200, check: (res) => expect(res.json().break_glass).toBe(true) },
    read: (side) => ({ url: `${acct(side)}/sso`, view: ssoView }),
    otherAccount: { kind: 'object', notFound: 'admin_not_found', missing: () => 2_000_000_000 },
    invalid: {
      call: (side, id) => ({ url: `${acct(side)}/sso/break-glass/${id}`, payload: { break_glass: 'yes' } }),
    },
  }),
  row({
    route: `GET ${API}/accounts/:accountId/sso/saml-metadata`,
    as: 'admin',
    call: (side) => ({ url: `${acct(side)}/sso/saml-metadata` }),
    success: {
      status: 200,
      check: (res, side) => expect(res.body).toContain(`/sso/${side.accountId}/saml/acs`),
    },
    otherAccount: { kind: 'account' },
    invalid: na('takes no input but the account'),
  }),
];
