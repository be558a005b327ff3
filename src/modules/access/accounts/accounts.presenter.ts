import { iso } from '../../../core/time.js';
import { displayNameOf, LOGO_MAX_BYTES } from './accounts.branding.model.js';
import type { AccountSettings } from './accounts.branding.service.js';
import type { Account } from './accounts.service.js';

export function presentAccount(account: Account) {
  return {
    id: account.id,
    name: account.name,
    created_at: iso(account.created_at),
    updated_at: iso(account.updated_at),
  };
}

export function presentAccountSettings(settings: AccountSettings) {
  return {
    name: settings.name,
    display_name: settings.display_name,
    shown_name: displayNameOf(settings),
    logo: settings.logo && {
      content_type: settings.logo.content_type,
      byte_size: settings.logo.byte_size,
      sha256: settings.logo.sha256,
      updated_at: iso(settings.logo.updated_at),
    },
    logo_max_bytes: LOGO_MAX_BYTES,
  };
}
