import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { startOidcIdp } from '../helpers/oidc-idp.js';
import { startSamlIdp } from '../helpers/saml-idp.js';
import {
  accessibilityProblems,
  DESKTOP,
  dismissNotices,
  PHONE,
  signedInPage,
  startVigil,
  type Vigil,
} from './harness.js';

// Single sign-on in Chromium, end to end, against identity providers started here: an owner
// connects oidc-provider on the SSO page; a new person signs in with "Sign in with SSO" through
// the provider's own login and consent pages and lands in the account (made just in time). The
// same through a samlify SAML IdP; and a person of a domain not allowed sees why they are refused.

const OUT = process.env.SCREENSHOTS ? 'docs/screenshots' : 'test/browser/.screens';
let vigil: Vigil;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  vigil = await startVigil({
    PUBLIC_URL: 'http://127.0.0.1:{port}',
    WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32',
  });
});

describe('single sign-on', () => {
  it('connects an OpenID Provider on the SSO page and signs a new administrator in through it', async () => {
    const account = (await vigil.vigil('account', 'create', '--name', 'Acme SSO')) as { id: number };
    const idp = await startOidcIdp({
      redirectUris: [`${vigil.baseUrl}/sso/${account.id}/oidc/callback`],
      people: {
        alice: {
          email: 'alice@acme-sso.example',
          email_verified: true,
          name: 'Alice Okta',
          groups: ['vigil-auditors'],
        },
      },
    });
    const owner = await signedInPage(vigil, { accountId: account.id }, { at: `/admin/a/${account.id}/sso` });
    const page = owner.page;
    await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
    await page.getByText(`${vigil.baseUrl}/sso/${account.id}/oidc/callback`).waitFor();
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client ID').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('Allowed email domains').fill('acme-sso.example');
    await page.getByLabel('Groups claim or attribute').fill('groups');
    await page.getByLabel('Group roles').fill('vigil-auditors = auditor');
    await page.getByRole('button', { name: 'Save identity provider' }).click();
    await page.getByText('Single sign-on saved').waitFor();
    await dismissNotices(page);
    await page.getByText('Sign-in open', { exact: true }).first().waitFor();
    expect(await page.getByLabel('Client secret').inputValue()).toBe('');
    expect(await accessibilityProblems(page, 'sso')).toEqual([]);
    await page.screenshot({ path: `${OUT}/sso.png` });
    const phone = await signedInPage(
      vigil,
      { accountId: account.id },
      { viewport: PHONE, at: `/admin/a/${account.id}/sso` },
    );
    await phone.page.getByLabel('Issuer URL').waitFor();
    await phone.page.screenshot({ path: `${OUT}/phone-sso.png` });

    // A person of the allowed domain, unknown to Vigil, signs in through the provider.
    const { page: visitor } = await vigil.newPage(DESKTOP);
    await visitor.goto('/admin/sign-in');
    await visitor.getByLabel('Email').fill('alice@acme-sso.example');
    await visitor.getByRole('button', { name: 'Continue with SSO' }).click();
    await visitor.waitForURL(`${idp.issuer}/**`);
    await visitor.locator('input[name="login"]').fill('alice');
    await visitor.locator('input[name="password"]').fill('anything');
    await visitor.getByRole('button', { name: 'Sign-in' }).click();
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await visitor.waitForURL(`**/admin/a/${account.id}**`);
    await visitor.getByRole('button', { name: 'User menu' }).click();
    await visitor.getByText('alice@acme-sso.example').first().waitFor();

    // The owner sees them among the administrators now.
    await page.goto(`/admin/a/${account.id}/admins`);
    await page.getByText('alice@acme-sso.example').first().waitFor();
  });

  it('signs in through a SAML IdP, and refuses a person whose domain is not allowed with a page that says so', async () => {
    const account = (await vigil.vigil('account', 'create', '--name', 'Beta SAML')) as { id: number };
    const idp = await startSamlIdp();
    const owner = await signedInPage(vigil, { accountId: account.id }, { at: `/admin/a/${account.id}/sso` });
    const page = owner.page;
    await page.getByText('SAML 2.0', { exact: true }).click();
    await page.getByLabel('IdP metadata URL').fill(idp.metadataUrl);
    await page.getByLabel('Allowed email domains').fill('beta-saml.example');
    await page.getByRole('button', { name: 'Save identity provider' }).click();
    await page.getByText('Single sign-on saved').waitFor();
    await page.getByText(idp.entityId).waitFor();
    await page.screenshot({ path: `${OUT}/sso-saml.png` });
    const spMetadata = await (await fetch(`${vigil.baseUrl}/sso/${account.id}/saml/metadata`)).text();
    idp.browser.spMetadata = spMetadata;

    idp.browser.person = { email: 'dana@beta-saml.example', name: 'Dana SAML' };
    const { page: visitor } = await vigil.newPage(DESKTOP);
    await visitor.goto(`/sso/${account.id}/login`);
    await visitor.getByRole('button', { name: 'Sign in as dana@beta-saml.example' }).click();
    await visitor.waitForURL(`**/admin/a/${account.id}**`);

    idp.browser.person = { email: 'mallory@elsewhere.example' };
    const { page: stranger } = await vigil.newPage(DESKTOP);
    await stranger.goto(`/sso/${account.id}/login`);
    await stranger.getByRole('button', { name: 'Sign in as mallory@elsewhere.example' }).click();
    await stranger.getByRole('heading', { name: 'Sign-in refused' }).waitFor();
    await stranger.getByText('Your email domain is not allowed to sign in to this account.').waitFor();
    expect(await accessibilityProblems(stranger, 'sso refusal')).toEqual([]);
    await stranger.screenshot({ path: `${OUT}/sso-refused.png` });
    await stranger.goto('/admin/');
    await stranger.waitForURL('**/admin/sign-in**');
  });
});
