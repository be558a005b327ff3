import { Select, Stack } from '@mantine/core';
import type { AccountRole } from '../../api/types';
import { GroupPicker, type PickedGroup } from '../campaigns/GroupPicker';

/** The built-in roles as the interface names them, with what each may do (docs/roles.md). */
export const ROLES: { value: AccountRole; label: string; description: string }[] = [
  { value: 'owner', label: 'Owner', description: 'Everything, including roles, SSO and security.' },
  {
    value: 'administrator',
    label: 'Administrator',
    description: 'Everything but roles, SSO and security, and the audit log’s retention.',
  },
  {
    value: 'campaign_manager',
    label: 'Campaign manager',
    description: 'Training and phishing campaigns, templates and results.',
  },
  { value: 'triage_analyst', label: 'Triage analyst', description: 'Reported mail.' },
  { value: 'auditor', label: 'Auditor', description: 'Reads everything, changes nothing.' },
];

export const roleLabel = (role: AccountRole | null) =>
  ROLES.find((r) => r.value === role)?.label ?? 'Operator';

interface RolePickerProps {
  accountId: number;
  role: AccountRole;
  groups: PickedGroup[];
  onRole: (role: AccountRole) => void;
  onGroups: (groups: PickedGroup[]) => void;
  roleError?: string | undefined;
  groupsError?: string | undefined;
}

/** A role and the groups it is limited to (none: every group; an owner's role covers every group). */
export function RolePicker({
  accountId,
  role,
  groups,
  onRole,
  onGroups,
  roleError,
  groupsError,
}: RolePickerProps) {
  return (
    <Stack gap="sm">
      <Select
        label="Role"
        required
        allowDeselect={false}
        data={ROLES.map(({ value, label }) => ({ value, label }))}
        value={role}
        onChange={(value) => value && onRole(value as AccountRole)}
        description={ROLES.find((r) => r.value === role)?.description}
        error={roleError}
      />
      {role !== 'owner' && (
        <GroupPicker
          accountId={accountId}
          label="Groups"
          value={groups}
          onChange={onGroups}
          description="Limit the role to these groups: their members and the campaigns that target only them. None: every group."
          error={groupsError}
        />
      )}
    </Stack>
  );
}
