import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterFile } from './cleanup.js';

/** A person the test identity provider signs in (the dev login form's "login" is their key). */
export interface IdpPerson {
  email: string;
  email_verified: boolean;
  name?: string;
  groups?: string[];
}

/**
 * A real OpenID Provider (oidc-provider, OpenID Certified) on 127.0.0.1 and a random port, with
 * one confidential client for Vigil (PKCE required) and the people given, signed in through its
 * development login and consent pages (any password). Closed after the file's tests.
 *
 * `jwks`: the provider's signing keys (private JWKs), when the test must hold them; else its
 * development key. `issuer`: the address it is reached at when that is not its own (a proxy in
 * front of it that keeps the Host header); `upstream` is then where the proxy forwards to.
 */
export async function startOidcIdp(props: {
  redirectUris: string[];
  people: Record<string, IdpPerson>;
  jwks?: { keys: Record<string, unknown>[] };
  issuer?: string;
}) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = props.issuer ?? upstream;
  const clientId = 'vigil';
  const clientSecret = 'vigil-test-client-secret-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: props.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    acrValues: ['urn:vigil:test:mfa', 'urn:vigil:test:password'],
    // Claims of the granted scopes in the ID token itself (as Okta and Entra put groups there).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['vigil-test-idp-cookie-key'] },
    ...(props.jwks ? { jwks: props.jwks } : {}),
    async findAccount(_ctx: unknown, id: string) {
      const person = props.people[id];
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...person }) };
    },
  });
  // The test's logs stay readable: the provider's own warnings about its dev pages are known.
  provider.on('server_error', () => {});
  server.on('request', provider.callback());
  afterFile(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    issuer,
    upstream,
    clientId,
    clientSecret,
    provider,
    /**
     * Drives the IdP as a browser would, from Vigil's authorization URL to the redirect back
     * (returned, with the code and state): the login form (as `login`), then consent.
     */
    async signIn(authorizationUrl: string, login: string): Promise<string> {
      const jar = new Map<string, string>();
      const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      let url = authorizationUrl;
      let init: RequestInit = {};
      for (let step = 0; step < 20; step++) {
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() },
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const at = (pair ?? '').indexOf('=');
          const name = (pair ?? '').slice(0, at);
          const value = (pair ?? '').slice(at + 1);
          if (/expires=Thu, 01 Jan 1970/i.test(cookie) || value === '') jar.delete(name);
          else jar.set(name, value);
        }
        const location = response.headers.get('location');
        if (location) {
          const next = new URL(location, url).href;
          if (props.redirectUris.some((uri) => next.startsWith(uri))) return next;
          url = next;
          init = {};
          continue;
        }
        const html = await response.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        if (!action)
          throw new Error(`the IdP answered ${response.status} without a form: ${html.slice(0, 300)}`);
        const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
        const body = new URLSearchParams(
          prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: prompt ?? 'consent' },
        );
        url = new URL(action.replace(/&amp;/g, '&'), url).href;
        init = {
          method: 'POST',
          body: body.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        };
      }
      throw new Error('the IdP never redirected back');
    },
  };
}
