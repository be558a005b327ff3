import { Anchor, Button, Code, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { ApiKey } from '../../api/types';
import { useCurrentUser } from '../../auth/session';
import { ConfirmDeleteOf } from '../../components/ConfirmDelete';
import { ErrorAlert } from '../../components/ErrorAlert';
import { invalidateAccount } from '../../components/invalidate';
import { PageHeader } from '../../components/PageHeader';
import { useDialog } from '../../components/use-dialog';
import { useAccount } from '../../layout/account-context';
import { KeysTable } from './KeysTable';
import { NewKeyModal } from './NewKeyModal';
import { RateLimitModal } from './RateLimitModal';
import { ReportButtonSection } from './ReportButtonSection';
import { ReportingAddressSection } from './ReportingAddressSection';
import { ScimSection } from './ScimSection';
import { WebhooksSection } from './WebhooksSection';

/** /a/:accountId/integration — API keys for the Customer API: create, list, revoke, rate budget. */
export function IntegrationPage() {
  const account = useAccount();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const revoking = useDialog<ApiKey>();
  const limiting = useDialog<ApiKey>();
  const keys = useQuery({
    queryKey: ['keys', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/keys', { params: { path: { accountId: account.id } } })),
  });

  const revoke = async (key: ApiKey) => {
    await call(
      api.POST('/accounts/{accountId}/keys/{id}/revoke', {
        params: { path: { accountId: account.id, id: key.id } },
      }),
    );
    invalidateAccount(queryClient, account.id, 'keys', 'overview');
    notifications.show({ color: 'teal', message: `Revoked "${key.name}"` });
  };

  return (
    <>
      <PageHeader
        title="Integration"
        description={
          <>
            API keys let HR systems and scripts use the Customer API (
            <Anchor href="/api/api_gateway/docs" target="_blank" rel="noopener" underline="always">
              reference
            </Anchor>
            ) with the <Code>apiKey</Code> header.
          </>
        }
        actions={
          <Button leftSection={<IconKey size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New API Key
          </Button>
        }
      />
      <Stack>
        <ErrorAlert error={keys.error} title="Could not load the API keys" />
        <KeysTable
          keys={keys.data?.results ?? []}
          fetching={keys.isFetching}
          isOperator={user.role === 'operator'}
          onRevoke={revoking.open}
          onRateLimit={limiting.open}
        />
        {keys.data && keys.data.count > keys.data.results.length && (
          <Text size="sm" c="dimmed">
            Showing the newest {keys.data.results.length} of {keys.data.count} keys.
          </Text>
        )}
        <ReportButtonSection
          accountId={account.id}
          keys={keys.data?.results ?? []}
          fetching={keys.isFetching}
        />
        <ReportingAddressSection />
        <ScimSection />
        <WebhooksSection accountId={account.id} />
      </Stack>
      <NewKeyModal accountId={account.id} opened={creating} onClose={() => setCreating(false)} />
      <RateLimitModal
        accountId={account.id}
        apiKey={limiting.target}
        opened={limiting.opened}
        onClose={limiting.close}
      />
      <ConfirmDeleteOf dialog={revoking} title="Revoke API key?" confirmLabel="Revoke" onConfirm={revoke}>
        Integrations using <strong>{revoking.target?.name}</strong> (<Code>{revoking.target?.prefix}…</Code>)
        stop working at once. This cannot be undone.
      </ConfirmDeleteOf>
    </>
  );
}
