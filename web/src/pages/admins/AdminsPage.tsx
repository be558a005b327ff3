import { Badge, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconDevices,
  IconLock,
  IconLockOpen,
  IconMailPlus,
  IconTrash,
  IconUserShield,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { api, call, errorMessage } from '../../api/client';
import type { Admin, PendingInvitation } from '../../api/types';
import { can, useCurrentUser } from '../../auth/session';
import { ConfirmDeleteOf } from '../../components/ConfirmDelete';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { IconButton } from '../../components/IconButton';
import { PageHeader } from '../../components/PageHeader';
import { PageSection } from '../../components/PageSection';
import { WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { useAccount } from '../../layout/account-context';
import { AdminSessionsModal } from './AdminSessionsModal';
import { InviteModal } from './InviteModal';
import { RoleModal } from './RoleModal';
import { roleLabel } from './RolePicker';

const tableProps = { withTableBorder: true, borderRadius: 'md', minHeight: 220 } as const;

/** /a/:accountId/admins — who administers this account in which role, and pending invitations (owners manage them). */
export function AdminsPage() {
  const account = useAccount();
  const me = useCurrentUser();
  // Owners (and operators) invite, remove and set roles (roles:write).
  const manages = can(me, 'roles:write');
  const [sessionsOf, setSessionsOf] = useState<Admin | null>(null);
  const [changing, setChanging] = useState<Admin | null>(null);
  const queryClient = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const revoking = useDialog<PendingInvitation>();
  const removing = useDialog<Admin>();
  const admins = useQuery({
    queryKey: ['admins', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/admins', { params: { path: { accountId: account.id } } })),
  });
  const invitations = useQuery({
    queryKey: ['invitations', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/invitations', { params: { path: { accountId: account.id } } })),
  });

  const revoke = async (invitation: PendingInvitation) => {
    await call(
      api.DELETE('/accounts/{accountId}/invitations/{id}', {
        params: { path: { accountId: account.id, id: invitation.id } },
      }),
    );
    queryClient.invalidateQueries({ queryKey: ['invitations', account.id] });
    notifications.show({ color: 'teal', message: `Invitation for ${invitation.email} revoked` });
  };

  const remove = async (admin: Admin) => {
    await call(
      api.DELETE('/accounts/{accountId}/admins/{id}', {
        params: { path: { accountId: account.id, id: admin.id } },
      }),
    );
    queryClient.invalidateQueries({ queryKey: ['admins', account.id] });
    notifications.show({ color: 'teal', message: `${admin.email} can no longer sign in` });
  };

  return (
    <>
      <PageHeader
        title="Administrators"
        description="People who can sign in to manage this account."
        actions={
          manages && (
            <Button leftSection={<IconMailPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>
              Invite administrator
            </Button>
          )
        }
      />
      <Stack gap="xl">
        <PageSection title="Account administrators" size="h4">
          <ErrorAlert error={admins.error} title="Could not load the administrators" />
          <DataTable<Admin>
            {...tableProps}
            aria-label="Account administrators"
            records={admins.data?.results ?? []}
            fetching={admins.isFetching}
            emptyState={
              <EmptyState title="No administrators yet">
                {manages ? 'Invite one with “Invite administrator”.' : 'Owners can invite administrators.'}
              </EmptyState>
            }
            columns={[
              { accessor: 'name', title: 'Name', render: (a) => a.name || <Text c="dimmed">—</Text> },
              { accessor: 'email', title: 'Email' },
              {
                accessor: 'account_role',
                title: 'Role',
                render: (a) => <Badge variant="light">{roleLabel(a.account_role)}</Badge>,
              },
              {
                accessor: 'groups',
                title: 'Groups',
                render: (a) =>
                  a.groups ? (
                    <Text size="sm">{a.groups.map((g) => g.name).join(', ')}</Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      Every group
                    </Text>
                  ),
                visibleMediaQuery: WIDE_ONLY,
              },
              {
                accessor: 'can_triage',
                title: 'Triage',
                render: (a) => <TriageSwitch admin={a} />,
              },
              {
                accessor: 'last_sign_in_at',
                title: 'Last sign-in',
                render: (a) =>
                  a.disabled_at ? (
                    <Badge color="gray" variant="light">
                      Disabled
                    </Badge>
                  ) : (
                    <DateText value={a.last_sign_in_at} empty="Never" />
                  ),
              },
              {
                accessor: 'created_at',
                title: 'Since',
                render: (a) => <DateText value={a.created_at} />,
                visibleMediaQuery: WIDE_ONLY,
              },
              {
                accessor: 'actions',
                title: 'Actions',
                textAlign: 'right',
                render: (a) => (
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <IconButton
                      tooltip="Sessions"
                      label={`Sessions of ${a.email}`}
                      icon={IconDevices}
                      onClick={() => setSessionsOf(a)}
                    />
                    {a.id !== me.id && <StatusButton admin={a} />}
                    {manages && a.id !== me.id && (
                      <IconButton
                        tooltip="Role"
                        label={`Change the role of ${a.email}`}
                        icon={IconUserShield}
                        onClick={() => setChanging(a)}
                      />
                    )}
                    {manages && a.id !== me.id && (
                      <IconButton
                        tooltip="Remove"
                        label={`Remove ${a.email}`}
                        icon={IconTrash}
                        color="red"
                        onClick={() => removing.open(a)}
                      />
                    )}
                  </Group>
                ),
              },
            ]}
          />
        </PageSection>
        <PageSection title="Pending invitations" size="h4">
          <ErrorAlert error={invitations.error} title="Could not load the invitations" />
          <DataTable<PendingInvitation>
            {...tableProps}
            aria-label="Pending invitations"
            records={invitations.data?.results ?? []}
            fetching={invitations.isFetching}
            emptyState={<EmptyState title="No pending invitations" />}
            columns={[
              { accessor: 'email', title: 'Email' },
              {
                accessor: 'account_role',
                title: 'Role',
                render: (i) => <Badge variant="light">{roleLabel(i.account_role)}</Badge>,
              },
              { accessor: 'created_at', title: 'Sent', render: (i) => <DateText value={i.created_at} /> },
              { accessor: 'expires_at', title: 'Expires', render: (i) => <DateText value={i.expires_at} /> },
              {
                accessor: 'actions',
                title: 'Actions',
                textAlign: 'right',
                hidden: !manages,
                render: (i) => (
                  <Button size="compact-sm" variant="light" color="red" onClick={() => revoking.open(i)}>
                    Revoke
                  </Button>
                ),
              },
            ]}
          />
        </PageSection>
      </Stack>
      <AdminSessionsModal accountId={account.id} admin={sessionsOf} onClose={() => setSessionsOf(null)} />
      <RoleModal accountId={account.id} admin={changing} onClose={() => setChanging(null)} />
      <InviteModal
        accountId={account.id}
        accountName={account.name}
        opened={inviting}
        onClose={() => setInviting(false)}
      />
      <ConfirmDeleteOf dialog={revoking} title="Revoke invitation?" confirmLabel="Revoke" onConfirm={revoke}>
        The link sent to <strong>{revoking.target?.email}</strong> will stop working.
      </ConfirmDeleteOf>
      <ConfirmDeleteOf
        dialog={removing}
        title="Remove administrator?"
        confirmLabel="Remove"
        onConfirm={remove}
      >
        <strong>{removing.target?.email}</strong> will be signed out and can no longer sign in to this
        account. You can invite them again later.
      </ConfirmDeleteOf>
    </>
  );
}

/**
 * The triage permission (reading reported mail, giving verdicts) of one administrator: only a
 * holder may change it, and the account's last holder keeps it; the server says so when refused.
 */
function TriageSwitch({ admin }: { admin: Admin }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (canTriage: boolean) =>
      call(
        api.PUT('/accounts/{accountId}/admins/{id}/triage', {
          params: { path: { accountId: account.id, id: admin.id } },
          body: { can_triage: canTriage },
        }),
      ),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['admins', account.id] });
      notifications.show({
        color: 'teal',
        message: saved.can_triage
          ? `${saved.email} can now read and judge reported mail`
          : `${saved.email} can no longer read reported mail`,
      });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: 'Could not change the triage permission',
        message: errorMessage(error),
      }),
  });
  return (
    <Switch
      aria-label={`Triage permission for ${admin.email}`}
      checked={change.isPending ? change.variables : admin.can_triage}
      disabled={change.isPending}
      onChange={(e) => change.mutate(e.currentTarget.checked)}
    />
  );
}

/** Disables an administrator (signed out at once, no sign-in) or enables them again. */
function StatusButton({ admin }: { admin: Admin }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const disabled = admin.disabled_at !== null;
  const change = useMutation({
    mutationFn: () =>
      call(
        disabled
          ? api.POST('/accounts/{accountId}/admins/{id}/enable', {
              params: { path: { accountId: account.id, id: admin.id } },
            })
          : api.POST('/accounts/{accountId}/admins/{id}/disable', {
              params: { path: { accountId: account.id, id: admin.id } },
            }),
      ),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['admins', account.id] });
      notifications.show({
        color: 'teal',
        message: saved.disabled_at
          ? `${saved.email} is disabled and signed out everywhere`
          : `${saved.email} can sign in again`,
      });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: disabled ? 'Could not enable the administrator' : 'Could not disable the administrator',
        message: errorMessage(error),
      }),
  });
  return (
    <IconButton
      tooltip={disabled ? 'Enable' : 'Disable'}
      label={`${disabled ? 'Enable' : 'Disable'} ${admin.email}`}
      icon={disabled ? IconLockOpen : IconLock}
      color={disabled ? undefined : 'red'}
      onClick={() => change.mutate()}
    />
  );
}
