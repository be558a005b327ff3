import { Switch, Table, Text } from '@mantine/core';
import { KEY_ACCESS, KEY_PERMISSIONS, KEY_RESOURCES, type Permission } from '../../api/types';

const RESOURCE_LABELS = {
  employees: 'Employees',
  groups: 'Groups',
  campaigns: 'Campaigns',
  reports: 'Phishing reports',
  audit: 'Audit log',
} as const;

interface PermissionSwitchesProps {
  value: Permission[];
  onChange: (value: Permission[]) => void;
  error?: string | undefined;
}

/** Read and write switches for each access point; each switch is named "employees read" etc. */
export function PermissionSwitches({ value, onChange, error }: PermissionSwitchesProps) {
  const toggle = (permission: Permission, on: boolean) =>
    onChange(on ? [...value, permission] : value.filter((p) => p !== permission));

  return (
    <fieldset
      style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
      aria-describedby={error ? 'permissions-error' : undefined}
    >
      <Text component="legend" fw={500} size="sm" mb={4}>
        Permissions
      </Text>
      <Table withTableBorder verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Access point</Table.Th>
            <Table.Th>Read</Table.Th>
            <Table.Th>Write</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {KEY_RESOURCES.map((resource) => (
            <Table.Tr key={resource}>
              <Table.Td>{RESOURCE_LABELS[resource]}</Table.Td>
              {KEY_ACCESS.map((access) => {
                const permission = `${resource}:${access}` as Permission;
                if (!KEY_PERMISSIONS.includes(permission)) {
                  return (
                    <Table.Td key={access}>
                      <Text size="sm" c="dimmed" aria-label={`${resource} ${access}: not offered`}>
                        —
                      </Text>
                    </Table.Td>
                  );
                }
                return (
                  <Table.Td key={access}>
                    <Switch
                      aria-label={`${resource} ${access}`}
                      checked={value.includes(permission)}
                      onChange={(e) => toggle(permission, e.currentTarget.checked)}
                    />
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={4}>
        Phishing reports: write alone is a report button&apos;s key (it reports the messages employees
        received and reads nothing); read lists the triage inbox&apos;s real reports and verdicts (for a
        SIEM). Audit log: read only, every change made in the account (for a SIEM).
      </Text>
      {error && (
        <Text id="permissions-error" c="red" size="sm" mt={4}>
          {error}
        </Text>
      )}
    </fieldset>
  );
}
