import { Badge, Button, Code, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUsersGroup } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { ScimToken } from '../../api/types';
import { ConfirmDeleteOf } from '../../components/ConfirmDelete';
import { CopyButton } from '../../components/CopyButton';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldError } from '../../components/form-errors';
import { PageSection } from '../../components/PageSection';
import { SaveForm } from '../../components/SaveForm';
import { SecretShownOnce } from '../../components/SecretShownOnce';
import { NameInput } from '../../components/TextInputs';
import { baseTableProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { useOnOpen } from '../../components/use-on-open';
import { useAccount } from '../../layout/account-context';

/** "New SCIM Token": a name → the token, shown this once, with the base URL to paste beside it. */
function NewScimTokenModal({
  opened,
  onClose,
  baseUrl,
}: {
  opened: boolean;
  onClose: () => void;
  baseUrl: string;
}) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const generate = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/scim-tokens', {
          params: { path: { accountId: account.id } },
          body: { name: name.trim() },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['scim-tokens', account.id] }),
  });
  useOnOpen(opened, () => {
    setName('');
    generate.reset();
  });
  const created = generate.data;
  if (created) {
    return (
      <SecretShownOnce
        opened={opened}
        onClose={onClose}
        title="Your new SCIM token"
        warning={{
          title: 'Copy the token now',
          text: 'This is the only time the token is shown. Paste it into Okta or Microsoft Entra as the API token (secret token).',
        }}
        label="SCIM token"
        secret={created.token}
      >
        <Text size="sm" c="dimmed">
          Base URL (tenant URL): <Code>{baseUrl}</Code>
        </Text>
      </SecretShownOnce>
    );
  }
  return (
    <Modal opened={opened} onClose={onClose} title="New SCIM token" size="lg">
      <SaveForm
        fieldLabels={FORM_FIELDS.scimToken.names}
        save={generate}
        onSubmit={() => generate.mutate()}
        fields={['name']}
        onCancel={onClose}
        submitLabel="Generate Token"
      >
        <NameInput
          description="Which identity provider uses it, e.g. “Okta”"
          value={name}
          onChange={setName}
          error={fieldError(generate.error, 'name')}
        />
      </SaveForm>
    </Modal>
  );
}

/**
 * The Integration area's SCIM part: the base URL to give Okta or Microsoft Entra, the account's
 * SCIM tokens (name, created, last used) and revoking one. See the README, "Integrations".
 */
export function ScimSection() {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const revoking = useDialog<ScimToken>();
  const tokens = useQuery({
    queryKey: ['scim-tokens', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/scim-tokens', { params: { path: { accountId: account.id } } })),
  });
  const baseUrl = tokens.data?.base_url ?? '';

  const revoke = async (token: ScimToken) => {
    await call(
      api.POST('/accounts/{accountId}/scim-tokens/{id}/revoke', {
        params: { path: { accountId: account.id, id: token.id } },
      }),
    );
    await queryClient.invalidateQueries({ queryKey: ['scim-tokens', account.id] });
    notifications.show({ color: 'teal', message: `Revoked "${token.name}"` });
  };

  return (
    <PageSection
      title="SCIM provisioning"
      actions={
        <Button leftSection={<IconUsersGroup size={16} aria-hidden />} onClick={() => setCreating(true)}>
          New SCIM Token
        </Button>
      }
    >
      <Text size="sm">
        Okta and Microsoft Entra create, update and deactivate employees and groups through SCIM 2.0. Base
        URL: <Code>{baseUrl}</Code> {baseUrl && <CopyButton value={baseUrl} />}
      </Text>
      <ErrorAlert error={tokens.error} title="Could not load the SCIM tokens" />
      <DataTable<ScimToken>
        {...baseTableProps}
        aria-label="SCIM tokens"
        records={tokens.data?.results ?? []}
        fetching={tokens.isFetching}
        emptyState={<EmptyState title="No SCIM tokens yet">Create one with “New SCIM Token”.</EmptyState>}
        columns={[
          { accessor: 'name', title: 'Name' },
          {
            accessor: 'prefix',
            title: 'Prefix',
            render: (s) => <Code>{s.prefix}…</Code>,
            visibleMediaQuery: WIDE_ONLY,
          },
          { accessor: 'created_at', title: 'Created', render: (s) => <DateText value={s.created_at} /> },
          {
            accessor: 'last_used_at',
            title: 'Last used',
            render: (s) =>
              s.last_used_at ? <DateText value={s.last_used_at} /> : <Text size="sm">Never</Text>,
          },
          {
            accessor: 'status',
            title: 'Status',
            render: (s) => (
              <Badge color={s.status === 'active' ? 'teal' : 'red'} variant="light">
                {s.status === 'active' ? 'Active' : 'Revoked'}
              </Badge>
            ),
          },
          {
            accessor: 'actions',
            title: 'Actions',
            textAlign: 'right',
            render: (s) =>
              s.status === 'active' && (
                <Button size="compact-sm" variant="light" color="red" onClick={() => revoking.open(s)}>
                  Revoke
                </Button>
              ),
          },
        ]}
      />
      <NewScimTokenModal opened={creating} onClose={() => setCreating(false)} baseUrl={baseUrl} />
      <ConfirmDeleteOf dialog={revoking} title="Revoke SCIM token?" confirmLabel="Revoke" onConfirm={revoke}>
        Okta or Entra using <strong>{revoking.target?.name}</strong> (<Code>{revoking.target?.prefix}…</Code>)
        stop provisioning at once. This cannot be undone.
      </ConfirmDeleteOf>
    </PageSection>
  );
}
