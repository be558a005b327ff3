import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app.js';
import { createLogger } from './logging.js';
import { redactUrl, registerSecretRoutes, SecretUrls } from './redaction.js';

function rules(): SecretUrls {
  const urls = new SecretUrls();
  urls.declare('/learn/:token/courses/:courseKey', ['token']);
  urls.declare('/admin/invite/:token', ['token']);
  urls.declare('/admin/api/invitations/:token/accept', ['token']);
  urls.declare('/t/:campaignId/:trackingToken', ['trackingToken'], ['rid']);
  return urls;
}

describe('the redaction rule', () => {
  const urls = rules();

  it('hides a declared token wherever the path goes next, and leaves every other path alone', () => {
    expect(urls.redactUrl('/learn/12.tqfrst.abcDEF_-123/courses/phishing/quiz?x=1')).toBe(
      '/learn/[redacted]/courses/phishing/quiz?x=1',
    );
    expect(urls.redactUrl('/learn/anything')).toBe('/learn/[redacted]');
    expect(urls.redactUrl('/admin/invite/abc/')).toBe('/admin/invite/[redacted]/');
    expect(urls.redactUrl('/admin/api/invitations/abc')).toBe('/admin/api/invitations/[redacted]');
    expect(urls.redactUrl('/t/12/xyz.png')).toBe('/t/12/[redacted]');
    for (const clean of [
      '/admin/learners',
      '/admin/api/accounts/3/invitations/5',
      '/admin/invite',
      '/api/api_gateway/customer/groups/1/',
    ]) {
      expect(urls.redactUrl(clean)).toBe(clean);
    }
  });

  it('matches the path as a browser or the router would resolve it', () => {
    expect(urls.redactUrl('//LEARN/abc')).toBe('//LEARN/[redacted]');
    expect(urls.redactUrl('/learn%2Fabc.def')).toBe('/learn%2F[redacted]');
    expect(urls.redactUrl('/le%61rn/abc')).toBe('/le%61rn/[redacted]');
    expect(urls.redactUrl('/admin/x/../invite/abc')).toBe('/admin/x/../invite/[redacted]');
    expect(urls.redactUrl('/admin/./invite//abc')).toBe('/admin/./invite//[redacted]');
    expect(urls.redactUrl('/vigil/learn/abc')).toBe('/vigil/learn/[redacted]');
  });

  it('hides secret query parameters, declared ones, a value that is a token-bearing path, and API keys', () => {
    const key = `vgl_${'a1B2c3D4'}${'x'.repeat(32)}`;
    expect(urls.redactUrl(`/x/?page=2&apiKey=${key}&token=t1`)).toBe(
      '/x/?page=2&apiKey=[redacted]&token=[redacted]',
    );
    expect(urls.redactUrl('/t/1/abc?rid=42&v=1')).toBe('/t/1/[redacted]?rid=[redacted]&v=1');
    expect(urls.redactUrl('/admin/sign-in?next=%2Fadmin%2Finvite%2Fabc')).toBe(
      '/admin/sign-in?next=[redacted]',
    );
    expect(urls.redactUrl(`/api/employees/${key}/`)).toBe('/api/employees/vgl_a1B2c3D4[redacted]/');
  });

  it('hides a token inside free text: an error message quoting a URL', () => {
    expect(urls.redactText('GET http://127.0.0.1:8080/admin/invite/abc failed: "/learn/def"')).toBe(
      'GET http://127.0.0.1:8080/admin/invite/[redacted] failed: "/learn/[redacted]"',
    );
  });
});

describe('routes with a token', () => {
  it('are refused at boot when a parameter named like a credential is not declared', () => {
    const app = Fastify();
    registerSecretRoutes(app);
    expect(() => app.get('/links/:linkToken', async () => 'x')).toThrow(/:linkToken looks like a credential/);
    app.get('/links/:linkToken', { config: { secretParams: ['linkToken'] } }, async () => 'x');
  });

  it('are refused at boot when a declared secret is not one of the parameters', () => {
    const app = Fastify();
    registerSecretRoutes(app);
    expect(() => app.get('/links/:id', { config: { secretParams: ['token'] } }, async () => 'x')).toThrow(
      /declares secretParams 'token'/,
    );
  });

  it('declare their tokens in the app: setup, invitation and learner links are redacted', async () => {
    await buildTestApp();
    for (const [url, logged] of [
      ['/admin/setup/abc', '/admin/setup/[redacted]'],
      ['/admin/invite/abc?x=1', '/admin/invite/[redacted]?x=1'],
      ['/admin/api/invitations/abc/accept', '/admin/api/invitations/[redacted]/accept'],
      ['/learn/1.abc.def/done', '/learn/[redacted]/done'],
    ]) {
      expect(redactUrl(url)).toBe(logged);
    }
  });
});

describe('the logger', () => {
  it('redacts URLs in an error message and stack, and in the text of a failure', async () => {
    await buildTestApp();
    const lines: string[] = [];
    const log = createLogger(
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const err = Object.assign(new Error('could not fetch http://vigil.example/admin/invite/s3cr3t-token'), {
      url: '/learn/s3cr3t-learner/done',
    });
    log.error({ err }, 'failed');
    log.warn(
      { error: '550 rejected: suspicious link https://vigil.example/learn/s3cr3t-mail' },
      'send failed',
    );
    log.flush();
    const line = lines.join('');
    expect(line).toContain('/admin/invite/[redacted]');
    expect(line).toContain('/learn/[redacted]/done');
    expect(line).toContain('https://vigil.example/learn/[redacted]');
    expect(line).not.toContain('s3cr3t');
  });
});
