/**
 * Routes that hold no account's data, each with why. A route listed here is classified all the
 * same: a new route fails the matrix until it has a row or an entry here. Customer API and
 * admin account routes can never be exempt (the test checks).
 */

const CONTRACT = 'the Customer API contract: public, the same for everyone';
const LEARNER =
  'cross-account by design: the token alone identifies the learner (learner.*.test.ts cover it)';
const SIMULATION =
  'a phishing simulation’s public link: the token is the credential and names its account; wrong, malformed and unknown tokens answer the same generic page (phishing.tracking.test.ts)';
const ADDIN_MANIFEST =
  'the Outlook add-in’s manifest: the report key in the address is the credential and names its account; a key that is unknown, revoked, expired or can do more than report is a 404 (addin.routes.test.ts)';
const ADDIN_FILE = 'the Outlook add-in’s task pane, script or icon: the same for every account, no data';
const SPA = 'the web interface’s page or files: no data (the data comes from the admin API)';

const SSO =
  'single sign-on’s public routes: the account in the path is the one whose IdP is used; the IdP’s signed answer (OIDC state and ID token, SAML assertion for this account’s entity id) is the credential (src/modules/access/sso/sso.test.ts, hostile-input.test.ts)';

export const EXEMPT: Record<string, string> = {
  'GET /sso/start': SSO,
  'GET /sso/:accountId/login': SSO,
  'GET /sso/:accountId/oidc/callback': SSO,
  'POST /sso/:accountId/saml/acs': SSO,
  'GET /sso/:accountId/saml/metadata': SSO,
  'POST /admin/api/mfa/passkeys':
    'the signed-in administrator’s own new passkey: it needs a real authenticator’s answer to its challenge (test/browser/mfa.test.ts enrols one with Chromium’s virtual authenticator; mfa.test.ts refuses garbage); it names no account',
  'GET /healthz': 'liveness probe: says the process answers, nothing else',
  'GET /readyz': 'readiness probe: database and Redis state, no account data',
  'GET /metrics': 'operator monitoring across accounts by design, behind METRICS_TOKEN (metrics.test.ts)',
  'GET /api/api_gateway/openapi.json': CONTRACT,
  'GET /api/api_gateway/docs': CONTRACT,
  'GET /api/api_gateway/docs/json': CONTRACT,
  'GET /api/api_gateway/docs/yaml': CONTRACT,
  'GET /api/api_gateway/docs/static/index.html': CONTRACT,
  'GET /api/api_gateway/docs/static/swagger-initializer.js': CONTRACT,
  'GET /api/api_gateway/docs/static/*': CONTRACT,
  'GET /api/api_gateway/docs/static/theme/favicon.svg': CONTRACT,
  'GET /api/api_gateway/docs/static/theme/vigil.css': CONTRACT,
  'GET /api/api_gateway/docs/static/theme/vigil.js': CONTRACT,
  'GET /learn/:token': LEARNER,
  'GET /learn/:token/done': LEARNER,
  'GET /learn/:token/courses/:courseKey/lessons/:lesson': LEARNER,
  'POST /learn/:token/courses/:courseKey/lessons/:lesson': LEARNER,
  'GET /learn/:token/courses/:courseKey/quiz': LEARNER,
  'POST /learn/:token/courses/:courseKey/quiz': LEARNER,
  'GET /learn/:token/courses/:courseKey/result': LEARNER,
  'GET /learn/:token/new-link': LEARNER,
  'POST /learn/:token/new-link': LEARNER,
  'GET /t/:token': SIMULATION,
  'GET /v/:token': SIMULATION,
  'POST /v/:token': SIMULATION,
  'POST /v/:token/i': SIMULATION,
  'GET /v/:token/learn': SIMULATION,
  'GET /addins/outlook/manifest.xml': ADDIN_MANIFEST,
  'GET /addins/outlook/manifest.json': ADDIN_MANIFEST,
  'GET /addins/outlook/package.zip': ADDIN_MANIFEST,
  'GET /addins/outlook/taskpane.html': ADDIN_FILE,
  'GET /addins/outlook/addin.js': ADDIN_FILE,
  ...Object.fromEntries(
    [16, 32, 64, 80, 128, 192].map((size) => [`GET /addins/outlook/icon-${size}.png`, ADDIN_FILE]),
  ),
  'GET /admin': SPA,
  'GET /admin/*': SPA,
  'GET /admin/assets/*': SPA,
  'GET /admin/setup/:token': SPA,
  'GET /admin/invite/:token': SPA,
};
