import { Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconGauge } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { type ApiKey, KEY_RESOURCES } from '../../api/types';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { formatNumber } from '../../components/format';
import { IconButton } from '../../components/IconButton';
import { baseTableProps, WIDE_ONLY } from '../../components/table';

const STATUS = {
  active: { color: 'teal', label: 'Active' },
  revoked: { color: 'red', label: 'Revoked' },
  expired: { color: 'gray', label: 'Expired' },
} as const;

/** "employees: read, write" — one line per access point the key may use. */
function Permissions({ permissions }: { permissions: ApiKey['permissions'] }) {
  return (
    <Stack gap={2}>
      {KEY_RESOURCES.map((resource) => {
        const held: readonly string[] = permissions;
        const access = (['read', 'write'] as const).filter((a) => held.includes(`${resource}:${a}`));
        if (access.length === 0) return null;
        return (
          <Text size="sm" key={resource} style={{ whiteSpace: 'nowrap' }}>
            {resource}: {access.join(', ')}
          </Text>
        );
      })}
    </Stack>
  );
}

interface KeysTableProps {
  keys: ApiKey[];
  fetching: boolean;
  isOperator: boolean;
  onRevoke: (key: ApiKey) => void;
  onRateLimit: (key: ApiKey) => void;
}

/** Every key of the account, newest first, revoked and expired ones included. */
export function KeysTable({ keys, fetching, isOperator, onRevoke, onRateLimit }: KeysTableProps) {
  return (
    <DataTable<ApiKey>
      {...baseTableProps}
      aria-label="API keys"
      records={keys}
      fetching={fetching}
      emptyState={
        <EmptyState title="No API keys yet">
          Create one with “New API Key” to let an HR system or script use the Customer API.
        </EmptyState>
      }
      columns={[
        {
          accessor: 'name',
          title: 'Name',
          render: (k) => (
            <Text size="sm" fw={500}>
              {k.name}
            </Text>
          ),
        },
        {
          accessor: 'prefix',
          title: 'Prefix',
          render: (k) => <Code>{k.prefix}…</Code>,
          visibleMediaQuery: WIDE_ONLY,
        },
        {
          accessor: 'permissions',
          title: 'Permissions',
          render: (k) => <Permissions permissions={k.permissions} />,
        },
        {
          accessor: 'created_at',
          title: 'Created',
          render: (k) => <DateText value={k.created_at} />,
          visibleMediaQuery: WIDE_ONLY,
        },
        {
          accessor: 'last_used_at',
          title: 'Last used',
          render: (k) => <DateText value={k.last_used_at} empty="Never" />,
          visibleMediaQuery: WIDE_ONLY,
        },
        {
          accessor: 'expires_at',
          title: 'Expires',
          render: (k) => <DateText value={k.expires_at} empty="Never" />,
          visibleMediaQuery: WIDE_ONLY,
        },
        {
          accessor: 'rate_limit',
          title: 'Rate budget',
          render: (k) => (
            <Group gap={4} wrap="nowrap">
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatNumber(k.rate_limit)}/min
              </Text>
              {isOperator && k.status === 'active' && (
                <IconButton
                  tooltip="Change rate budget"
                  label={`Change rate budget of ${k.name}`}
                  icon={IconGauge}
                  size="sm"
                  iconSize={16}
                  onClick={() => onRateLimit(k)}
                />
              )}
            </Group>
          ),
        },
        {
          accessor: 'status',
          title: 'Status',
          width: 120,
          render: (k) => (
            <Stack gap={2} align="flex-start">
              <Badge color={STATUS[k.status].color} variant="light" style={{ overflow: 'visible' }}>
                {STATUS[k.status].label}
              </Badge>
              {k.revoked_at && (
                <Text size="xs" c="dimmed">
                  <DateText value={k.revoked_at} />
                </Text>
              )}
            </Stack>
          ),
        },
        {
          accessor: 'actions',
          title: 'Actions',
          textAlign: 'right',
          render: (k) =>
            k.status !== 'revoked' && (
              <Button size="compact-sm" variant="light" color="red" onClick={() => onRevoke(k)}>
                Revoke
              </Button>
            ),
        },
      ]}
    />
  );
}
