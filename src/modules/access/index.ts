export {
  type Branding,
  brandingOf,
  brandingOfAccounts,
} from './accounts/accounts.branding.service.js';
export { getAccount } from './accounts/accounts.service.js';
export { type AuthenticatedKey, authenticateKey } from './keys/keys.service.js';
