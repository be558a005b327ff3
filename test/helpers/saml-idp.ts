import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as samlify from 'samlify';
import { afterFile } from './cleanup.js';

// samlify wants an XML schema validator; the test IdP only signs what it builds itself.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** A fresh RSA key and self-signed certificate (openssl), for one test IdP. */
export function newSigningKey(): { privateKey: string; certificate: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-saml-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '2',
        '-subj',
        '/CN=Vigil test IdP',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      privateKey: readFileSync(join(dir, 'key.pem'), 'utf8'),
      certificate: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SamlPerson {
  email: string;
  name?: string;
  groups?: string[];
}

/** What a test makes the IdP do wrong. */
export interface SamlTwist {
  audience?: string;
  /** Conditions and SubjectConfirmationData NotOnOrAfter (and NotBefore an hour before). */
  notOnOrAfter?: Date;
  issuer?: string;
  inResponseTo?: string;
  /** Sign only the Response, not the Assertion (the SP's metadata asks for signed assertions). */
  unsignedAssertion?: boolean;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/**
 * A SAML 2.0 identity provider built with samlify, on 127.0.0.1 and a random port: its metadata
 * (entity id, HTTP-Redirect SSO URL, signing certificate), and signed responses to Vigil's
 * AuthnRequests, for Node tests (`respond`) and for a browser (GET /sso shows a "Sign in as …"
 * button that posts the response to Vigil's ACS). `key` lets two IdPs share an entity id but not a key.
 */
export async function startSamlIdp(
  props: { entityId?: string; key?: { privateKey: string; certificate: string } } = {},
) {
  const key = props.key ?? newSigningKey();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = props.entityId ?? `${base}/metadata`;
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey: key.privateKey,
    signingCert: key.certificate,
    nameIDFormat: [EMAIL_FORMAT],
    wantAuthnRequestsSigned: false,
    singleSignOnService: [{ Binding: REDIRECT, Location: `${base}/sso` }],
  });
  const metadata = idp.getMetadata();

  /** The SAMLResponse (base64) answering the AuthnRequest in Vigil's redirect URL. */
  async function respond(
    spMetadata: string,
    redirectUrl: string,
    person: SamlPerson,
    twist: SamlTwist = {},
  ): Promise<string> {
    const sp = samlify.ServiceProvider({
      metadata: twist.unsignedAssertion
        ? spMetadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"')
        : spMetadata,
    });
    const query = Object.fromEntries(new URL(redirectUrl).searchParams);
    const { extract } = await idp.parseLoginRequest(sp, 'redirect', { query, octetString: '' } as never);
    const now = new Date();
    const later = twist.notOnOrAfter ?? new Date(now.getTime() + 5 * 60 * 1000);
    const notBefore = twist.notOnOrAfter ? new Date(later.getTime() - 60 * 60 * 1000) : now;
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
    const inResponseTo = twist.inResponseTo ?? (extract as { request: { id: string } }).request.id;
    const issuer = twist.issuer ?? entityId;
    const audience = twist.audience ?? sp.entityMeta.getEntityID();
    const attributes = [
      ['email', [person.email]],
      ...(person.name ? [['displayName', [person.name]]] : []),
      ...(person.groups ? [['groups', person.groups]] : []),
    ] as [string, string[]][];
    const attributeStatement = `<saml:AttributeStatement>${attributes
      .map(
        ([name, values]) =>
          `<saml:Attribute Name="${esc(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
            .map((v) => `<saml:AttributeValue xsi:type="xs:string">${esc(v)}</saml:AttributeValue>`)
            .join('')}</saml:Attribute>`,
      )
      .join('')}</saml:AttributeStatement>`;
    const id = `_${randomBytes(16).toString('hex')}`;
    const assertionId = `_${randomBytes(16).toString('hex')}`;
    const instant = now.toISOString();
    const context =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${instant}" Destination="${esc(acs)}" InResponseTo="${esc(inResponseTo)}">` +
      `<saml:Issuer>${esc(issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${instant}">` +
      `<saml:Issuer>${esc(issuer)}</saml:Issuer><saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${esc(person.email)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${later.toISOString()}" Recipient="${esc(acs)}" InResponseTo="${esc(inResponseTo)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore.toISOString()}" NotOnOrAfter="${later.toISOString()}"><saml:AudienceRestriction><saml:Audience>${esc(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `${attributeStatement}</saml:Assertion></samlp:Response>`;
    const result = await idp.createLoginResponse(
      sp,
      { extract } as never,
      'post',
      { email: person.email },
      {
        customTagReplacement: () => ({ id, context }),
      },
    );
    return (result as { context: string }).context;
  }

  /** For the browser: who GET /sso signs in next, and Vigil's SP metadata to answer with. */
  const browser: { person: SamlPerson | null; spMetadata: string | null } = {
    person: null,
    spMetadata: null,
  };
  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(metadata);
      return;
    }
    if (url.pathname === '/sso' && browser.person && browser.spMetadata) {
      try {
        const samlResponse = await respond(browser.spMetadata, url.href, browser.person);
        const sp = samlify.ServiceProvider({ metadata: browser.spMetadata });
        const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><html><head><title>Test IdP</title></head><body><h1>Test SAML IdP</h1>` +
              `<form method="post" action="${esc(acs)}"><input type="hidden" name="SAMLResponse" value="${esc(samlResponse)}">` +
              `<button type="submit">Sign in as ${esc(browser.person.email)}</button></form></body></html>`,
          );
      } catch (err) {
        res.writeHead(500).end(String(err));
      }
      return;
    }
    res.writeHead(404).end('not found');
  });
  afterFile(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { base, entityId, metadata, metadataUrl: `${base}/metadata`, key, respond, browser };
}
