import { Badge, Button, Stack, Text } from '@mantine/core';
import { DataTable } from 'mantine-datatable';
import type { DeviceSession } from '../../api/types';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { WIDE_ONLY } from '../../components/table';

const METHODS: Record<string, string> = {
  password: 'Password',
  link: 'Invitation link',
  oidc: 'Single sign-on (OpenID Connect)',
  saml: 'Single sign-on (SAML)',
};

interface SessionsTableProps {
  label: string;
  sessions: DeviceSession[];
  fetching: boolean;
  /** Ends one session; the button is disabled while it runs. */
  onEnd: (session: DeviceSession) => void;
  ending: string | null;
  /** The current session's button says "Sign out" (ending it signs this browser out). */
  own: boolean;
}

/** Signed-in sessions: device, address, how they signed in, first and last use, and an End button each. */
export function SessionsTable({ label, sessions, fetching, onEnd, ending, own }: SessionsTableProps) {
  return (
    <DataTable<DeviceSession>
      withTableBorder
      borderRadius="md"
      minHeight={160}
      aria-label={label}
      records={sessions}
      fetching={fetching}
      emptyState={<EmptyState title="No signed-in sessions" />}
      columns={[
        {
          accessor: 'device',
          title: 'Device',
          render: (s) => (
            <Stack gap={2}>
              <Text size="sm" fw={500}>
                {s.device}
              </Text>
              {s.current && (
                <Badge size="sm" variant="light" color="teal" w="fit-content">
                  This browser
                </Badge>
              )}
            </Stack>
          ),
        },
        {
          accessor: 'address',
          title: 'Address',
          render: (s) => s.address ?? '—',
          visibleMediaQuery: WIDE_ONLY,
        },
        {
          accessor: 'method',
          title: 'Signed in with',
          render: (s) => (s.method ? (METHODS[s.method] ?? s.method) : '—'),
          visibleMediaQuery: WIDE_ONLY,
        },
        {
          accessor: 'created_at',
          title: 'Signed in',
          render: (s) => <DateText value={s.created_at} />,
          visibleMediaQuery: WIDE_ONLY,
        },
        { accessor: 'last_seen_at', title: 'Last used', render: (s) => <DateText value={s.last_seen_at} /> },
        {
          accessor: 'actions',
          title: 'Actions',
          textAlign: 'right',
          render: (s) => (
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              loading={ending === s.id}
              aria-label={own && s.current ? 'Sign out of this browser' : `End the session on ${s.device}`}
              onClick={() => onEnd(s)}
            >
              {own && s.current ? 'Sign out' : 'End'}
            </Button>
          ),
        },
      ]}
    />
  );
}
