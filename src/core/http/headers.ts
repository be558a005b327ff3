import helmet from 'helmet';

/**
 * The security headers every response carries, computed once at start by helmet itself (the
 * same choices @fastify/helmet made per request, which rebuilt them on every request).
 * TLS is a proxy's job: a server reached over plain HTTP on a LAN must still load its own
 * assets, hence no `upgrade-insecure-requests`.
 */
function computeSecurityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } })(
    {} as never,
    response as never,
    () => {},
  );
  return headers;
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(computeSecurityHeaders());
