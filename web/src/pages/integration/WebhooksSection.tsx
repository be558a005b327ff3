import { Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconEdit,
  IconList,
  IconPlayerPause,
  IconPlayerPlay,
  IconSend,
  IconTrash,
  IconWebhook,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { WebhookEndpoint } from '../../api/types';
import { ConfirmDeleteOf } from '../../components/ConfirmDelete';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { IconButton } from '../../components/IconButton';
import { PageSection } from '../../components/PageSection';
import { baseTableProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { WebhookDeliveriesModal } from './WebhookDeliveriesModal';
import { WebhookEndpointModal } from './WebhookEndpointModal';

const REASONS = {
  manual: 'Disabled',
  failing: 'Disabled: failing for 5 days',
  gone: 'Disabled: 410 Gone',
} as const;

function Status({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) {
    return endpoint.failing_since ? (
      <Badge color="orange" variant="light">
        Failing
      </Badge>
    ) : (
      <Badge color="teal" variant="light">
        Enabled
      </Badge>
    );
  }
  return (
    <Badge color="red" variant="light">
      {REASONS[endpoint.disabled_reason ?? 'manual']}
    </Badge>
  );
}

/** The Integration area's webhooks: signed events (Standard Webhooks) sent to the account's endpoints. */
export function WebhooksSection({ accountId }: { accountId: number }) {
  const queryClient = useQueryClient();
  const path = { params: { path: { accountId } } };
  const endpoints = useQuery({
    queryKey: ['webhooks', accountId],
    queryFn: () => call(api.GET('/accounts/{accountId}/webhooks/endpoints', path)),
  });
  const settings = useQuery({
    queryKey: ['webhook-settings', accountId],
    queryFn: () => call(api.GET('/accounts/{accountId}/webhooks/settings', path)),
  });
  const maxEndpoints = settings.data?.max_endpoints;
  const atLimit = maxEndpoints !== undefined && (endpoints.data?.count ?? 0) >= maxEndpoints;
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const logOf = useDialog<WebhookEndpoint>();
  const deleting = useDialog<WebhookEndpoint>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks', accountId] });
  const on = (e: WebhookEndpoint) => ({ params: { path: { accountId, id: e.id } } });

  const setEnabled = async (e: WebhookEndpoint, enabled: boolean) => {
    await call(api.PATCH('/accounts/{accountId}/webhooks/endpoints/{id}', { ...on(e), body: { enabled } }));
    await refresh();
    notifications.show({ color: 'teal', message: enabled ? `Enabled ${e.url}` : `Disabled ${e.url}` });
  };
  const sendTest = async (e: WebhookEndpoint) => {
    await call(api.POST('/accounts/{accountId}/webhooks/endpoints/{id}/test', on(e)));
    notifications.show({ color: 'teal', message: `Test event queued for ${e.url}` });
  };
  const remove = async (e: WebhookEndpoint) => {
    await call(api.DELETE('/accounts/{accountId}/webhooks/endpoints/{id}', on(e)));
    await refresh();
    notifications.show({ color: 'teal', message: `Deleted ${e.url}` });
  };

  return (
    <PageSection
      title="Webhooks"
      actions={
        <Button
          variant="default"
          leftSection={<IconWebhook size={16} aria-hidden />}
          onClick={() => setEditing('new')}
          disabled={atLimit}
        >
          New Endpoint
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        Events (employees, groups, training, phishing) are POSTed to your endpoints, signed as{' '}
        <Code>Standard Webhooks</Code> defines; failed deliveries are retried for about a day.
        {maxEndpoints !== undefined && ` An account has at most ${maxEndpoints} endpoints.`}
      </Text>
      <ErrorAlert error={endpoints.error} title="Could not load the webhook endpoints" />
      <DataTable<WebhookEndpoint>
        {...baseTableProps}
        aria-label="Webhook endpoints"
        records={endpoints.data?.results ?? []}
        fetching={endpoints.isFetching}
        emptyState={
          <EmptyState title="No webhook endpoints yet">
            Add one with “New Endpoint” to learn about changes without polling.
          </EmptyState>
        }
        columns={[
          {
            accessor: 'url',
            title: 'URL',
            render: (e) => (
              <Stack gap={0}>
                <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                  {e.url}
                </Text>
                {e.description && (
                  <Text size="xs" c="dimmed">
                    {e.description}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            accessor: 'event_types',
            title: 'Events',
            render: (e) => (e.event_types === null ? 'All events' : `${e.event_types.length} selected`),
            visibleMediaQuery: WIDE_ONLY,
          },
          { accessor: 'enabled', title: 'Status', render: (e) => <Status endpoint={e} /> },
          {
            accessor: 'created_at',
            title: 'Created',
            render: (e) => <DateText value={e.created_at} />,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (e) => (
              <Group gap={0} justify="flex-end" wrap="nowrap">
                <IconButton
                  tooltip="Deliveries"
                  label={`Deliveries of ${e.url}`}
                  icon={IconList}
                  onClick={() => logOf.open(e)}
                />
                <IconButton
                  tooltip="Send test event"
                  label={`Send a test event to ${e.url}`}
                  icon={IconSend}
                  disabled={!e.enabled}
                  onClick={() => void sendTest(e)}
                />
                <IconButton
                  tooltip="Edit"
                  label={`Edit ${e.url}`}
                  icon={IconEdit}
                  onClick={() => setEditing(e)}
                />
                {e.enabled ? (
                  <IconButton
                    tooltip="Disable"
                    label={`Disable ${e.url}`}
                    icon={IconPlayerPause}
                    onClick={() => void setEnabled(e, false)}
                  />
                ) : (
                  <IconButton
                    tooltip="Enable"
                    label={`Enable ${e.url}`}
                    icon={IconPlayerPlay}
                    onClick={() => void setEnabled(e, true)}
                  />
                )}
                <IconButton
                  tooltip="Delete"
                  label={`Delete ${e.url}`}
                  icon={IconTrash}
                  color="red"
                  onClick={() => deleting.open(e)}
                />
              </Group>
            ),
          },
        ]}
      />
      <WebhookEndpointModal
        accountId={accountId}
        endpoint={editing}
        eventTypes={settings.data?.event_types ?? []}
        allowHttp={settings.data?.allow_http ?? false}
        onClose={() => setEditing(null)}
        onSaved={refresh}
      />
      <WebhookDeliveriesModal accountId={accountId} dialog={logOf} />
      <ConfirmDeleteOf
        dialog={deleting}
        title="Delete webhook endpoint?"
        confirmLabel="Delete"
        onConfirm={remove}
      >
        Events stop going to <strong>{deleting.target?.url}</strong>, and its delivery log is deleted.
      </ConfirmDeleteOf>
    </PageSection>
  );
}
