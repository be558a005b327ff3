import { type IncomingHttpHeaders, request } from 'node:http';

/**
 * Plain HTTP requests to a server process, with every header under the test's control (a
 * forged `Host` included, which fetch does not allow), and a browser-like cookie jar.
 */

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON whose shape the assertions check
  json(): any;
}

export interface SendOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
}

export function send(
  baseUrl: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<HttpAnswer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method, path, headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Cookies and the CSRF token of one browser signed in (or not) to the web interface. */
export class BrowserSession {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly hooks: {
      /** Told of every cookie value and CSRF token the server hands this browser. */
      onSecret?: (what: string, value: string) => void;
      /** Told of every request sent. */
      onSend?: () => void;
    } = {},
  ) {}

  async send(method: string, path: string, options: SendOptions = {}): Promise<HttpAnswer> {
    this.hooks.onSend?.();
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    if (this.csrf) headers['x-csrf-token'] = this.csrf;
    const answer = await send(this.baseUrl, method, path, { ...options, headers });
    for (const cookie of answer.headers['set-cookie'] ?? []) {
      const [pair = ''] = cookie.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0/i.test(cookie)) {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
        this.hooks.onSecret?.(`cookie ${name}`, value);
      }
    }
    if (answer.headers['content-type']?.startsWith('application/json')) {
      const token = answer.json()?.csrf_token;
      if (typeof token === 'string') {
        this.csrf = token;
        this.hooks.onSecret?.('CSRF token', token);
      }
    }
    return answer;
  }
}
