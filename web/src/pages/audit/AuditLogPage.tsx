import { Badge, Code, Group as Row, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { API_BASE, api, call } from '../../api/client';
import type { components } from '../../api/generated/admin-api';
import { CsvDownloadButton } from '../../components/CsvDownloadButton';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilterSelect } from '../../components/FilterSelect';
import { ListSearch } from '../../components/ListSearch';
import { useClampPage, useListFilter, useListState } from '../../components/list-state';
import { PageHeader } from '../../components/PageHeader';
import { serverPageProps, WIDE_ONLY } from '../../components/table';
import { useAccount } from '../../layout/account-context';
import { AuditRetention } from './AuditRetention';

type AuditEntry = components['schemas']['AuditEntry'];
type ActorKind = AuditEntry['actor']['kind'];

/** What each kind of actor acted through, as the page says it. */
const THROUGH: Record<ActorKind, string> = {
  admin: 'Web interface',
  operator: 'Operator',
  cli: 'vigil command',
  api_key: 'API key',
  scim_token: 'SCIM token',
  system: 'Vigil',
  anonymous: 'Anonymous',
};
const KINDS = Object.keys(THROUGH) as ActorKind[];

/** `group` or `group.` asks for every action on groups; `group.updated` for that action alone. */
function actionFilter(text: string): string | undefined {
  const value = text.trim().toLowerCase();
  if (!value) return undefined;
  return value.includes('.') ? value : `${value}.`;
}

/** The day after a date (YYYY-MM-DD): "to" a day includes it. */
function dayAfter(date: string): string | undefined {
  const at = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(at) ? undefined : new Date(at + 86_400_000).toISOString().slice(0, 10);
}

/** A value of a change, short: text as it is, anything else as JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (value === '') return '(empty)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function Changes({ changes }: { changes: AuditEntry['changes'] }) {
  const fields = Object.entries((changes ?? {}) as Record<string, Record<string, unknown>>);
  if (fields.length === 0)
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={2}>
      {fields.map(([field, change]) => (
        <Text key={field} size="xs" style={{ overflowWrap: 'anywhere' }}>
          <strong>{field}</strong>:{' '}
          {'changed' in change ? (
            <em>changed (secret, not recorded)</em>
          ) : (
            <>
              {shown(change.from)} → {shown(change.to)}
            </>
          )}
        </Text>
      ))}
    </Stack>
  );
}

/** /a/:accountId/audit-log — every change made in the account: who, through what, when, from where, what. */
export function AuditLogPage() {
  const account = useAccount();
  const list = useListState();
  const [kind, setKind] = useListFilter<ActorKind>(list.setPage);
  const [actionText, setActionText] = useState('');
  const [objectText, setObjectText] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [action] = useDebouncedValue(actionFilter(actionText), 300);
  const [object] = useDebouncedValue(objectText.trim().toLowerCase(), 300);
  const filters = {
    actor: list.query || undefined,
    actor_kind: kind || undefined,
    action,
    object_type: object || undefined,
    since: from || undefined,
    until: to ? dayAfter(to) : undefined,
  };
  const params = { ...filters, page: list.page, page_size: list.pageSize };
  const entries = useQuery({
    queryKey: ['audit-log', account.id, params],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/audit-log', {
          params: { path: { accountId: account.id }, query: params },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(entries.data, list.page, list.pageSize, list.setPage);
  const csv = new URLSearchParams(
    Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string'),
  ).toString();
  const filtered = Object.values(filters).some((v) => v !== undefined);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made in this account, by whom and through what, when and from where. Secrets are never recorded, only that they changed."
        actions={
          <CsvDownloadButton href={`${API_BASE}/accounts/${account.id}/audit-log.csv${csv ? `?${csv}` : ''}`}>
            Export CSV
          </CsvDownloadButton>
        }
      />
      <Stack>
        <AuditRetention />
        <Row gap="sm" align="flex-end" wrap="wrap">
          <ListSearch list={list} label="Person" placeholder="Email or name" w={{ base: '100%', sm: 220 }} />
          <FilterSelect
            label="Through"
            allLabel="Anything"
            options={KINDS.map((k) => ({ value: k, label: THROUGH[k] }))}
            value={kind}
            onChange={setKind}
            w={{ base: '100%', sm: 160 }}
          />
          <TextInput
            label="Action"
            placeholder="group or group.updated"
            value={actionText}
            onChange={(e) => {
              setActionText(e.currentTarget.value);
              list.setPage(1);
            }}
            w={{ base: '100%', sm: 190 }}
          />
          <TextInput
            label="Object"
            placeholder="employee, api_key…"
            value={objectText}
            onChange={(e) => {
              setObjectText(e.currentTarget.value);
              list.setPage(1);
            }}
            w={{ base: '100%', sm: 160 }}
          />
          <TextInput
            type="date"
            label="From"
            value={from}
            onChange={(e) => {
              setFrom(e.currentTarget.value);
              list.setPage(1);
            }}
            w={{ base: '47%', sm: 150 }}
          />
          <TextInput
            type="date"
            label="To"
            value={to}
            onChange={(e) => {
              setTo(e.currentTarget.value);
              list.setPage(1);
            }}
            w={{ base: '47%', sm: 150 }}
          />
        </Row>
        <ErrorAlert error={entries.error} title="Could not load the audit log" />
        <DataTable<AuditEntry>
          {...serverPageProps(list, entries)}
          aria-label="Audit log"
          verticalAlign="top"
          emptyState={
            <EmptyState title={filtered ? 'Nothing matches these filters' : 'Nothing recorded yet'}>
              {filtered ? 'Clear a filter to see more.' : 'Changes made in this account are recorded here.'}
            </EmptyState>
          }
          columns={[
            {
              accessor: 'at',
              title: 'When',
              render: (e) => (
                <Stack gap={0}>
                  <DateText value={e.at} absolute />
                  <Text size="xs" c="dimmed" hiddenFrom="sm">
                    {e.address ?? ''}
                  </Text>
                </Stack>
              ),
            },
            {
              accessor: 'actor',
              title: 'Who',
              render: (e) => (
                <Stack gap={2}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {e.actor.label}
                  </Text>
                  <Badge size="xs" variant="light" color={e.actor.kind === 'anonymous' ? 'red' : 'gray'}>
                    {THROUGH[e.actor.kind]}
                  </Badge>
                </Stack>
              ),
            },
            {
              accessor: 'address',
              title: 'From',
              render: (e) => <Text size="sm">{e.address ?? '—'}</Text>,
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'action',
              title: 'Action',
              render: (e) => (
                <Stack gap={2}>
                  <Code style={{ whiteSpace: 'normal' }}>
                    {/* Breaks after the dot only: `phishing_campaign.` then `launched`. */}
                    {e.action.split('.').map((part, i) => (
                      <span key={part}>
                        {i > 0 && (
                          <>
                            .<wbr />
                          </>
                        )}
                        {part}
                      </span>
                    ))}
                  </Code>
                  <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                    {e.object.type}
                    {e.object.id ? ` #${e.object.id}` : ''} {e.object.label ?? ''}
                  </Text>
                  <Stack hiddenFrom="sm" gap={0}>
                    <Changes changes={e.changes} />
                  </Stack>
                </Stack>
              ),
            },
            {
              accessor: 'object',
              title: 'Object',
              render: (e) => (
                <Stack gap={0}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {e.object.label ?? '—'}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {e.object.type}
                    {e.object.id ? ` #${e.object.id}` : ''}
                  </Text>
                </Stack>
              ),
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'changes',
              title: 'Changes',
              render: (e) => <Changes changes={e.changes} />,
              visibleMediaQuery: WIDE_ONLY,
            },
          ]}
        />
      </Stack>
    </>
  );
}
