import { Anchor, Badge, Button, Code, Group as Row, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { API_BASE, api, call } from '../../../api/client';
import type { components } from '../../../api/generated/admin-api';
import { CsvDownloadButton } from '../../../components/CsvDownloadButton';
import { DateText } from '../../../components/DateText';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { FilterSelect } from '../../../components/FilterSelect';
import { formatDateTime } from '../../../components/format';
import { ListSearch } from '../../../components/ListSearch';
import { useClampPage, useListFilter, useListState } from '../../../components/list-state';
import { PageSection } from '../../../components/PageSection';
import { serverPageProps, WIDE_ONLY } from '../../../components/table';
import { ReclassifyDialog } from './ReclassifyDialog';
import { EVENT_LABELS, RECIPIENT_STATUS_COLORS, RECIPIENT_STATUS_LABELS } from './results-format';

type Recipient = components['schemas']['PhishingRecipient'];
type Summary = components['schemas']['PhishingResultsSummary'];
type PhishingEvent = components['schemas']['PhishingEvent'];

const STATUS_FILTERS = ['scheduled', 'sent', 'opened', 'clicked', 'submitted', 'failed', 'reported'];

const fullName = (r: Recipient) => `${r.employee.first_name} ${r.employee.last_name}`;

export function RecipientStatus({ status, reported }: { status: string; reported: boolean }) {
  return (
    <Row gap={4} wrap="nowrap">
      <Badge color={RECIPIENT_STATUS_COLORS[status] ?? 'gray'} variant="light" miw="max-content">
        {RECIPIENT_STATUS_LABELS[status] ?? status}
      </Badge>
      {reported && (
        <Badge color="green" variant="light" miw="max-content">
          Reported
        </Badge>
      )}
    </Row>
  );
}

interface RecipientsTableProps {
  accountId: number;
  summary: Summary;
}

/** Everyone targeted, paged and filtered by the server; a row opens that person's event timeline. */
export function RecipientsTable({ accountId, summary }: RecipientsTableProps) {
  const campaignId = summary.campaign.id;
  const list = useListState();
  const [status, setStatus] = useListFilter(list.setPage);
  const [groupId, setGroupId] = useListFilter(list.setPage);
  const [template, setTemplate] = useListFilter(list.setPage);
  const [expanded, setExpanded] = useState<number[]>([]);
  const params = {
    page: list.page,
    page_size: list.pageSize,
    ...(list.query ? { q: list.query } : {}),
    ...(status ? { status } : {}),
    ...(groupId ? { group_id: groupId } : {}),
    ...(template ? { template } : {}),
  };
  const recipients = useQuery({
    queryKey: ['phishing-recipients', accountId, campaignId, params],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/phishing/campaigns/{campaignId}/results/recipients', {
          params: { path: { accountId, campaignId }, query: params },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(recipients.data, list.page, list.pageSize, list.setPage);
  const filtered = Boolean(list.query || status || groupId || template);
  const templateName = new Map(summary.campaign.templates.map((t) => [t.key, t.name]));

  return (
    <PageSection
      title="People"
      actions={
        <CsvDownloadButton
          href={`${API_BASE}/accounts/${accountId}/phishing/campaigns/${campaignId}/results/recipients.csv`}
        >
          Download CSV
        </CsvDownloadButton>
      }
    >
      <Row gap="sm" align="flex-end">
        <ListSearch
          list={list}
          aria-label="Search people"
          placeholder="Search by name or email"
          style={{ flex: '1 1 14rem' }}
          maw={360}
        />
        <FilterSelect
          aria-label="Status"
          allLabel="All statuses"
          options={STATUS_FILTERS.map((s) => ({ value: s, label: RECIPIENT_STATUS_LABELS[s] ?? s }))}
          value={status}
          onChange={setStatus}
          w={160}
        />
        {summary.campaign.groups.length > 1 && (
          <FilterSelect
            aria-label="Group"
            allLabel="All groups"
            options={summary.campaign.groups.map((g) => ({
              value: String(g.id),
              label: g.name ?? `Group #${g.id}`,
            }))}
            value={groupId}
            onChange={setGroupId}
            w={180}
          />
        )}
        {summary.campaign.templates.length > 1 && (
          <FilterSelect
            aria-label="Template"
            allLabel="All templates"
            options={summary.campaign.templates.map((t) => ({ value: t.key, label: t.name }))}
            value={template}
            onChange={setTemplate}
            w={200}
          />
        )}
      </Row>
      <ErrorAlert error={recipients.error} title="Could not load the people" />
      <DataTable<Recipient>
        {...serverPageProps(list, recipients)}
        aria-label="People in this simulation"
        rowExpansion={{
          allowMultiple: true,
          expanded: { recordIds: expanded, onRecordIdsChange: setExpanded },
          content: ({ record }) => (
            <Timeline accountId={accountId} campaignId={campaignId} recipient={record} />
          ),
        }}
        emptyState={
          filtered ? (
            <EmptyState title="Nobody matches">Try another search or filter.</EmptyState>
          ) : (
            <EmptyState title="Nobody was targeted">The campaign has no recipients yet.</EmptyState>
          )
        }
        columns={[
          {
            accessor: 'name',
            title: 'Name',
            render: (r) =>
              r.employee_deleted ? (
                <Text size="sm" c="dimmed" fs="italic" span>
                  {fullName(r)}
                </Text>
              ) : (
                // Looks and works like a link: in the tab order, Enter or Space opens the timeline
                // (the click reaches the row, which expands; the row's own click does the same).
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  fw={500}
                  ta="left"
                  aria-expanded={expanded.includes(r.id)}
                  aria-label={`Events of ${fullName(r)}`}
                >
                  {r.employee.last_name}, {r.employee.first_name}
                </Anchor>
              ),
          },
          {
            accessor: 'email',
            title: 'Email',
            render: (r) => r.employee.email ?? '—',
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'template_key',
            title: 'Template',
            render: (r) => templateName.get(r.template_key) ?? r.template_key,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'status',
            title: 'Status',
            render: (r) => (
              <Stack gap={2}>
                <RecipientStatus status={r.status} reported={r.reported_at !== null} />
                {r.status === 'scheduled' && (
                  <Text size="xs" c="dimmed">
                    <time dateTime={r.planned_at}>planned {formatDateTime(r.planned_at)}</time>
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            accessor: 'planned_at',
            title: 'Planned',
            render: (r) => <time dateTime={r.planned_at}>{formatDateTime(r.planned_at)}</time>,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'sent_at',
            title: 'Delivered',
            render: (r) => <DateText value={r.sent_at} />,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'clicked_at',
            title: 'Clicked',
            render: (r) => <DateText value={r.clicked_at} />,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'reported_at',
            title: 'Reported',
            render: (r) => <DateText value={r.reported_at} />,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'training_assigned_at',
            title: 'Training',
            render: (r) => (r.training_assigned_at ? 'Assigned' : '—'),
            visibleMediaQuery: WIDE_ONLY,
          },
        ]}
      />
    </PageSection>
  );
}

/** One person's events, oldest first, each said to be a person's or a machine's, and why. */
function Timeline({
  accountId,
  campaignId,
  recipient,
}: {
  accountId: number;
  campaignId: number;
  recipient: Recipient;
}) {
  const [reclassifying, setReclassifying] = useState<PhishingEvent | null>(null);
  const events = useQuery({
    queryKey: ['phishing-events', accountId, campaignId, recipient.id],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/phishing/campaigns/{campaignId}/recipients/{recipientId}/events', {
          params: { path: { accountId, campaignId, recipientId: recipient.id } },
          signal,
        }),
      ),
  });
  if (events.error) return <ErrorAlert error={events.error} title="Could not load the events" />;
  if (!events.data)
    return (
      <Text size="sm" c="dimmed" p="sm">
        Loading the events…
      </Text>
    );
  return (
    <Stack gap={6} p="sm" bg="var(--mantine-color-gray-0)">
      <Text size="sm" fw={600}>
        Events of {fullName(recipient)}
      </Text>
      <Text size="sm">
        {recipient.sent_at ? 'Planned for ' : 'Goes out '}
        <time dateTime={recipient.planned_at}>{formatDateTime(recipient.planned_at)}</time>
        {recipient.sent_at ? '' : ' (planned)'}
      </Text>
      {events.data.events.length === 0 && (
        <Text size="sm" c="dimmed">
          Nothing has happened yet.
        </Text>
      )}
      <ol style={{ margin: 0, paddingLeft: '1.2rem' }} aria-label={`Events of ${fullName(recipient)}`}>
        {events.data.events.map((e: PhishingEvent) => (
          <li key={e.id} style={{ marginBottom: 6 }}>
            <Row gap="xs" wrap="wrap" align="baseline">
              <Text size="sm" fw={500}>
                {EVENT_LABELS[e.kind] ?? e.kind}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTime(e.occurred_at)}
              </Text>
              <Badge size="sm" variant="light" color={e.classification === 'human' ? 'blue' : 'gray'}>
                {e.classification === 'human' ? 'Person' : 'Automated'}
              </Badge>
              {e.reclassification && (
                <Badge size="sm" variant="outline" color="grape">
                  Reclassified
                </Badge>
              )}
              {/* Only a person's steps can be reclassified: delivery and training assigned are records of the system's own. */}
              {e.reclassifiable && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => setReclassifying(e)}
                  aria-label={`Reclassify ${EVENT_LABELS[e.kind] ?? e.kind}, ${formatDateTime(e.occurred_at)}`}
                >
                  Reclassify
                </Button>
              )}
            </Row>
            <Text size="xs" c="dimmed">
              {e.reason_text}
              {e.field_names.length > 0 && (
                <> Fields: {e.field_names.join(', ')} (values are never stored).</>
              )}
            </Text>
            {e.reclassification && (
              <Text size="xs" c="grape.8" style={{ overflowWrap: 'anywhere' }}>
                Reclassified by {e.reclassification.by_name ?? 'an administrator'}
                {e.reclassification.at && <> on {formatDateTime(e.reclassification.at)}</>}
                {e.reclassification.original_classification && (
                  <>
                    {' '}
                    (was {e.reclassification.original_classification === 'human' ? 'a person' : 'automated'})
                  </>
                )}
                : “{e.reclassification.reason}”
              </Text>
            )}
            {(e.client_address || e.user_agent) && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {e.client_address && <Code>{e.client_address}</Code>} {e.user_agent}
              </Text>
            )}
          </li>
        ))}
      </ol>
      <ReclassifyDialog
        accountId={accountId}
        campaignId={campaignId}
        event={reclassifying}
        onClose={() => setReclassifying(null)}
      />
    </Stack>
  );
}
