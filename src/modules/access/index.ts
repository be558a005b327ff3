export {
  type Branding,
  brandingOf,
  brandingOfAccounts,
} from './accounts/accounts.branding.service.js';
export { getAccount } from './accounts/accounts.service.js';
