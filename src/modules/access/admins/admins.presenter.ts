import { iso, isoOrNull } from '../../../core/time.js';
import type { Admin } from './admins.service.js';

/** The signed-in user, as the web interface knows them. */
export function presentUser(admin: Admin) {
  return {
    id: admin.id,
    email: admin.email,
    name: admin.name,
    role: admin.role,
    account_id: admin.account_id,
  };
}

export function presentAdmin(admin: Admin) {
  return {
    ...presentUser(admin),
    created_at: iso(admin.created_at),
    last_sign_in_at: isoOrNull(admin.last_sign_in_at),
    can_triage: admin.can_triage === 1,
    disabled_at: isoOrNull(admin.disabled_at),
  };
}
