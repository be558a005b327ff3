import type { SignInThrottle } from '../../../core/auth/sign-in-throttle.js';
import type { SessionLifetime } from './sessions.service.js';

/** What the admin plugin gives the route modules that need it (sessions, links, keys). */
export interface AdminOptions {
  lifetime: SessionLifetime;
  throttle: SignInThrottle;
  /** Signs cookies and keys CSRF tokens; from SESSION_SECRET, else generated and kept in the database. */
  cookieSecret: string | undefined;
  /** Per-minute budget of a new API key. */
  defaultRateLimit: number;
}
