import { X509Certificate } from 'node:crypto';
import type { FieldErrorCollector } from '../../../core/errors.js';
import { type IdpMetadata, MAX_METADATA_BYTES, MAX_URL } from './sso.model.js';

export type { IdpMetadata };

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

function children(parent: Element, ns: string, name: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (
      node.nodeType === 1 &&
      (node as Element).localName === name &&
      (node as Element).namespaceURI === ns
    ) {
      found.push(node as Element);
    }
  }
  return found;
}

const pem = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;

/**
 * A CommonJS package's exports, however its dynamic import gives them: the bundle's chunk of one
 * exports them as `default` only (so `const { DOMParser } = await import(…)` found nothing there),
 * Node and the tests both as `default` and by name.
 */
export async function commonJs<T>(loading: Promise<T>): Promise<T> {
  const loaded = (await loading) as T & { default?: T };
  return loaded.default ?? loaded;
}

/** The XML reader, read with the first SAML metadata or response (as node-saml is). */
export const xmlReader = () => commonJs(import('@xmldom/xmldom'));

/** The metadata's IdP, or null with the errors added to `field`. */
export async function parseIdpMetadata(
  errors: FieldErrorCollector,
  field: string,
  xml: string,
): Promise<IdpMetadata | null> {
  if (Buffer.byteLength(xml, 'utf8') > MAX_METADATA_BYTES) {
    errors.add(field, `must be at most ${MAX_METADATA_BYTES / 1024} KiB`);
    return null;
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    errors.add(field, 'must not hold a document type declaration');
    return null;
  }
  let failed = false;
  const fail = () => {
    failed = true;
  };
  let doc: Document | undefined;
  const { DOMParser } = await xmlReader();
  try {
    doc = new DOMParser({
      errorHandler: { warning: () => {}, error: fail, fatalError: fail },
    }).parseFromString(xml, 'text/xml');
  } catch {
    failed = true;
  }
  let root = doc?.documentElement as Element | null | undefined;
  if (failed || !root) {
    errors.add(field, 'is not SAML metadata (XML that could not be read)');
    return null;
  }
  if (root.localName === 'EntitiesDescriptor' && root.namespaceURI === MD) {
    root = children(root, MD, 'EntityDescriptor').find((e) => children(e, MD, 'IDPSSODescriptor').length > 0);
  }
  if (root?.localName !== 'EntityDescriptor' || root.namespaceURI !== MD) {
    errors.add(field, 'is not SAML metadata (no EntityDescriptor)');
    return null;
  }
  const entityId = root.getAttribute('entityID') ?? '';
  const idp = children(root, MD, 'IDPSSODescriptor')[0];
  if (!idp || entityId === '' || entityId.length > MAX_URL) {
    errors.add(field, 'describes no identity provider (no entityID or IDPSSODescriptor)');
    return null;
  }
  const services = children(idp, MD, 'SingleSignOnService');
  const service =
    services.find((s) => s.getAttribute('Binding') === REDIRECT) ??
    services.find((s) => s.getAttribute('Binding') === POST);
  const ssoUrl = service?.getAttribute('Location') ?? '';
  let ssoOk = false;
  try {
    const url = new URL(ssoUrl);
    ssoOk = (url.protocol === 'https:' || url.protocol === 'http:') && ssoUrl.length <= MAX_URL;
  } catch {}
  if (!ssoOk) {
    errors.add(field, 'has no SingleSignOnService with an HTTP-Redirect or HTTP-POST location');
    return null;
  }
  const certificates: string[] = [];
  for (const key of children(idp, MD, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const info of children(key, DS, 'KeyInfo')) {
      for (const data of children(info, DS, 'X509Data')) {
        for (const cert of children(data, DS, 'X509Certificate')) {
          const base64 = (cert.textContent ?? '').replace(/\s+/g, '');
          try {
            new X509Certificate(pem(base64));
          } catch {
            errors.add(field, 'holds a signing certificate that could not be read');
            return null;
          }
          if (!certificates.includes(base64)) certificates.push(base64);
        }
      }
    }
  }
  if (certificates.length === 0) {
    errors.add(field, 'holds no signing certificate: Vigil needs one to check signed assertions');
    return null;
  }
  return { entityId, ssoUrl, certificates: certificates.slice(0, 5) };
}

/** What the settings page shows of a certificate: its subject, end of validity and SHA-256 fingerprint. */
export function describeCertificate(base64: string): { subject: string; not_after: string; sha256: string } {
  try {
    const cert = new X509Certificate(pem(base64));
    return {
      subject: cert.subject.replace(/\n/g, ', '),
      not_after: new Date(cert.validTo).toISOString(),
      sha256: cert.fingerprint256,
    };
  } catch {
    return { subject: '', not_after: '', sha256: '' };
  }
}

export { pem as certificatePem };

/** The ID of the first Assertion in a (base64) SAMLResponse, unchecked: only to name a refusal. */
export async function assertionIdOf(samlResponse: string): Promise<string | null> {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return null;
  const { DOMParser } = await xmlReader();
  try {
    const doc = new DOMParser({
      errorHandler: { warning: () => {}, error: () => {}, fatalError: () => {} },
    }).parseFromString(xml, 'text/xml');
    const assertion = doc?.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Assertion')[0];
    const id = assertion?.getAttribute('ID');
    return id && id.length <= 200 ? id : null;
  } catch {
    return null;
  }
}
