import { Alert, Anchor, Card, Group as Row, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconInbox, IconMailForward } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link, useSearchParams } from 'react-router';
import { api, call } from '../../api/client';
import { MESSAGE_STATUSES, type Message, type MessageStatus } from '../../api/types';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilterSelect } from '../../components/FilterSelect';
import { formatNumber } from '../../components/format';
import { useClampPage, useListFilter, useListState } from '../../components/list-state';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge, statusLabel } from '../../components/StatusBadge';
import { serverPageProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { accountPath, useAccount } from '../../layout/account-context';
import { MessageModal } from './MessageModal';
import { messageTitle } from './message-title';

/** While mail waits to be sent the page reads the queue again this often. */
const BUSY_REFRESH_MS = 3_000;

/** /a/:accountId/outbox — every invitation and reminder: queued, sent, failed; the bodies as sent. */
export function OutboxPage() {
  const account = useAccount();
  const list = useListState();
  const [status, setStatus] = useListFilter<MessageStatus>(list.setPage);
  const [searchParams, setSearchParams] = useSearchParams();
  const campaignId = Number(searchParams.get('campaign')) || undefined;
  const opened = useDialog<Message>();

  const summary = useQuery({
    queryKey: ['messages', account.id, 'summary'],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/messages/summary', { params: { path: { accountId: account.id } } }),
      ),
    refetchInterval: (query) => {
      const counts = query.state.data?.counts;
      return counts && counts.queued + counts.sending > 0 ? BUSY_REFRESH_MS : false;
    },
  });
  const busy = (summary.data?.counts.queued ?? 0) + (summary.data?.counts.sending ?? 0) > 0;
  const params = {
    status: status || undefined,
    campaign_id: campaignId,
    page: list.page,
    page_size: list.pageSize,
  };
  const messages = useQuery({
    queryKey: ['messages', account.id, params],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/messages', {
          params: { path: { accountId: account.id }, query: params },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    // While anything is on its way, in the summary or on this page (the two are read at
    // different moments: a message sent in between must not stay "queued" here).
    refetchInterval: (query) =>
      busy || query.state.data?.results.some((m) => m.status === 'queued' || m.status === 'sending')
        ? BUSY_REFRESH_MS
        : false,
  });
  useClampPage(messages.data, list.page, list.pageSize, list.setPage);
  const campaignName = messages.data?.results.find((m) => m.campaign?.id === campaignId)?.campaign?.name;

  return (
    <>
      <PageHeader
        title="Outbox"
        description="Every invitation, reminder and phishing simulation Vigil sends, with what it said."
      />
      <Stack>
        <Transport summary={summary.data?.transport} />
        <ErrorAlert error={summary.error} title="Could not load the mail summary" />
        <SimpleGrid
          cols={{ base: 3, md: 5 }}
          component="dl"
          m={0}
          spacing="sm"
          aria-label="Messages by status"
        >
          {MESSAGE_STATUSES.map((s) => (
            <Card key={s} withBorder padding="sm" miw={0}>
              <Text component="dt" size="sm" c="dimmed" fw={500}>
                {statusLabel(s)}
              </Text>
              <Text component="dd" m={0} fz={{ base: 20, sm: 24 }} fw={700} lh={1.25}>
                {summary.data ? formatNumber(summary.data.counts[s]) : '–'}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
        <Row gap="sm" align="flex-end" justify="space-between">
          <FilterSelect
            label="Status"
            allLabel="All statuses"
            options={MESSAGE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
            value={status}
            onChange={setStatus}
            w={180}
          />
          {campaignId !== undefined && (
            <Text size="sm">
              Only the campaign {campaignName ? <strong>{campaignName}</strong> : `#${campaignId}`} ·{' '}
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => {
                  setSearchParams({});
                  list.setPage(1);
                }}
              >
                Show all campaigns
              </Anchor>
            </Text>
          )}
        </Row>
        <ErrorAlert error={messages.error} title="Could not load the messages" />
        <DataTable<Message>
          {...serverPageProps(list, messages)}
          aria-label="Messages"
          emptyState={
            <EmptyState
              title={status ? `No ${statusLabel(status).toLowerCase()} messages` : 'No messages yet'}
            >
              {status ? 'Choose another status.' : 'Invitations are queued here when a campaign is launched.'}
            </EmptyState>
          }
          columns={[
            {
              accessor: 'subject',
              title: 'Subject',
              render: (m) => (
                <Stack gap={0}>
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    fw={500}
                    ta="left"
                    onClick={() => opened.open(m)}
                  >
                    {messageTitle(m)}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {statusLabel(m.kind)}
                    {m.subject ? '' : ' · written when sent'}
                    {m.attempts_in_doubt > 0 ? ' · may have arrived twice' : ''}
                  </Text>
                  {/* On phones the "To" and "Campaign" columns are hidden: they go here. */}
                  <Text size="xs" c="dimmed" hiddenFrom="sm">
                    To {m.to_address ?? '—'}
                    {m.campaign ? ` · ${m.campaign.name}` : ''}
                  </Text>
                </Stack>
              ),
            },
            {
              accessor: 'to_address',
              title: 'To',
              render: (m) => (
                <Stack gap={0}>
                  {m.employee && (
                    <Text size="sm">
                      {m.employee.first_name} {m.employee.last_name}
                    </Text>
                  )}
                  <Text size="xs" c={m.employee ? 'dimmed' : undefined}>
                    {m.to_address ?? '—'}
                  </Text>
                </Stack>
              ),
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'campaign',
              title: 'Campaign',
              render: (m) =>
                m.campaign ? (
                  <Anchor
                    component={Link}
                    to={
                      m.kind === 'simulation'
                        ? accountPath(account.id, 'phishing', 'campaigns', m.campaign.id)
                        : accountPath(account.id, 'campaigns', m.campaign.id)
                    }
                    size="sm"
                  >
                    {m.campaign.name}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                ),
              visibleMediaQuery: WIDE_ONLY,
            },
            { accessor: 'status', title: 'Status', render: (m) => <StatusBadge status={m.status} /> },
            {
              accessor: 'attempts',
              title: 'Attempts',
              textAlign: 'right',
              render: (m) => formatNumber(m.attempts),
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'sent_at',
              title: 'Sent',
              noWrap: true,
              render: (m) =>
                m.sent_at ? (
                  <DateText value={m.sent_at} />
                ) : (
                  <Text size="sm" c="dimmed" span>
                    Created <DateText value={m.created_at} />
                  </Text>
                ),
              visibleMediaQuery: WIDE_ONLY,
            },
          ]}
        />
      </Stack>
      <MessageModal
        accountId={account.id}
        messageId={opened.target?.id ?? null}
        opened={opened.opened}
        onClose={opened.close}
      />
    </>
  );
}

/** Where mail goes: an SMTP server, or nowhere but this page. */
function Transport({ summary }: { summary: 'smtp' | 'outbox' | undefined }) {
  if (!summary) return null;
  return summary === 'smtp' ? (
    <Alert color="teal" variant="light" icon={<IconMailForward aria-hidden />}>
      <Text fw={600} size="sm">
        Sending through SMTP
      </Text>
      <Text size="sm">
        Messages are delivered through the configured SMTP server and kept here as the record.
      </Text>
    </Alert>
  ) : (
    <Alert color="yellow" variant="light" icon={<IconInbox aria-hidden />}>
      <Text fw={600} size="sm">
        No SMTP server configured: messages are kept here
      </Text>
      <Text size="sm">
        Nothing leaves Vigil until the server is started with <code>SMTP_URL</code>. Open a message to read
        it.
      </Text>
    </Alert>
  );
}
