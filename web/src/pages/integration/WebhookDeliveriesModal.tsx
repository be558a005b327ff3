import { Badge, Code, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRepeat } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { api, call } from '../../api/client';
import type { WebhookDelivery, WebhookEndpoint } from '../../api/types';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { IconButton } from '../../components/IconButton';
import { baseTableProps } from '../../components/table';
import type { Dialog } from '../../components/use-dialog';

const COLORS = {
  queued: 'gray',
  sending: 'blue',
  succeeded: 'teal',
  failed: 'red',
  cancelled: 'gray',
} as const;

/** An endpoint's delivery log, newest first: status, time, answer; "Resend". */
export function WebhookDeliveriesModal({
  accountId,
  dialog,
}: {
  accountId: number;
  dialog: Dialog<WebhookEndpoint>;
}) {
  const queryClient = useQueryClient();
  const endpoint = dialog.target;
  const key = ['webhook-deliveries', accountId, endpoint?.id];
  const log = useQuery({
    queryKey: key,
    enabled: dialog.opened && endpoint !== null,
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/webhooks/endpoints/{id}/deliveries', {
          params: { path: { accountId, id: endpoint?.id ?? 0 }, query: { page_size: '50' } },
        }),
      ),
  });
  const resend = async (d: WebhookDelivery) => {
    await call(
      api.POST('/accounts/{accountId}/webhooks/endpoints/{id}/deliveries/{deliveryId}/resend', {
        params: { path: { accountId, id: endpoint?.id ?? 0, deliveryId: d.id } },
      }),
    );
    await queryClient.invalidateQueries({ queryKey: key });
    notifications.show({ color: 'teal', message: `${d.event_type} queued again` });
  };
  return (
    <Modal
      opened={dialog.opened}
      onClose={dialog.close}
      title={`Deliveries to ${endpoint?.url ?? ''}`}
      size="xl"
    >
      <ErrorAlert error={log.error} title="Could not load the deliveries" />
      <DataTable<WebhookDelivery>
        {...baseTableProps}
        aria-label="Webhook deliveries"
        records={log.data?.results ?? []}
        fetching={log.isFetching}
        emptyState={
          <EmptyState title="No deliveries yet">Events for this endpoint will show here.</EmptyState>
        }
        rowExpansion={{
          content: ({ record }) => (
            <Text size="xs" p="xs">
              <Code block>{record.response_excerpt ?? record.error ?? '—'}</Code>
            </Text>
          ),
        }}
        columns={[
          { accessor: 'event_type', title: 'Event', render: (d) => <Code>{d.event_type}</Code> },
          {
            accessor: 'status',
            title: 'Status',
            render: (d) => (
              <Badge color={COLORS[d.status]} variant="light">
                {d.status}
              </Badge>
            ),
          },
          { accessor: 'attempts', title: 'Attempts' },
          {
            accessor: 'last_attempt_at',
            title: 'Last attempt',
            render: (d) => <DateText value={d.last_attempt_at} />,
          },
          {
            accessor: 'response_status',
            title: 'Response',
            render: (d) => d.response_status ?? d.error ?? '—',
          },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (d) => (
              <IconButton
                tooltip="Resend"
                label={`Resend ${d.event_type} ${d.webhook_id}`}
                icon={IconRepeat}
                disabled={!endpoint?.enabled}
                onClick={() => void resend(d)}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}
