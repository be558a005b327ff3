import { iso, isoOrNull } from '../../../core/time.js';
import { ADMIN_PERMISSIONS, ROLE_PERMISSIONS } from '../roles/roles.model.js';
import type { ScopeGroup } from '../roles/roles.repository.js';
import type { Admin } from './admins.service.js';

/** What the user may do in their account (an operator: everything, everywhere). */
export function permissionsOf(admin: Pick<Admin, 'role' | 'account_role'>): string[] {
  if (admin.role === 'operator') return [...ADMIN_PERMISSIONS];
  return admin.account_role ? [...ROLE_PERMISSIONS[admin.account_role]] : [];
}

/** The signed-in user, as the web interface knows them. */
export function presentUser(admin: Admin) {
  return {
    id: admin.id,
    email: admin.email,
    name: admin.name,
    role: admin.role,
    account_id: admin.account_id,
    account_role: admin.account_role,
    permissions: permissionsOf(admin),
  };
}

export function presentAdmin(admin: Admin, groups: ScopeGroup[] | null = null) {
  return {
    ...presentUser(admin),
    groups,
    created_at: iso(admin.created_at),
    last_sign_in_at: isoOrNull(admin.last_sign_in_at),
    can_triage: admin.can_triage === 1,
    disabled_at: isoOrNull(admin.disabled_at),
  };
}
