import { Anchor, Button, Group as Row, Stack, Text } from '@mantine/core';
import { IconFlag, IconPlugConnected, IconSettings } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { FilterSelect } from '../../components/FilterSelect';
import { formatNumber, plural } from '../../components/format';
import { useClampPage, useListFilter, useListState } from '../../components/list-state';
import { PageHeader } from '../../components/PageHeader';
import { serverPageProps, WIDE_ONLY } from '../../components/table';
import { accountPath, useAccount } from '../../layout/account-context';
import { type ReportSummary, VERDICT_LABELS, VERDICTS, type Verdict } from './reports-api';
import { isForbidden, TriageError, VerdictBadge } from './VerdictBadge';

type VerdictFilter = Verdict | 'none';

const FILTERS: { value: VerdictFilter; label: string }[] = [
  { value: 'none', label: 'Not judged' },
  ...VERDICTS.map((v) => ({ value: v, label: VERDICT_LABELS[v] })),
];

/** /a/:accountId/reports — the triage inbox: real mail employees reported, grouped, newest first. */
export function ReportsPage() {
  const account = useAccount();
  const list = useListState();
  const [verdict, setVerdict] = useListFilter<VerdictFilter>(list.setPage);
  const params = { verdict: verdict || undefined, page: list.page, page_size: list.pageSize };
  const reports = useQuery({
    queryKey: ['reports', account.id, params],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/reports', {
          params: { path: { accountId: account.id }, query: params },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(reports.data, list.page, list.pageSize, list.setPage);
  const reportPath = (r: ReportSummary) => accountPath(account.id, 'reports', r.id);

  return (
    <>
      <PageHeader
        title="Reports"
        description="Suspicious mail your employees reported that was not a simulation: judge each one, and every reporter hears back."
        actions={
          <Button
            component={Link}
            to={accountPath(account.id, 'reports', 'settings')}
            variant="default"
            leftSection={<IconSettings size={16} aria-hidden />}
          >
            Reporting settings
          </Button>
        }
      />
      {isForbidden(reports.error) ? (
        <TriageError error={reports.error} title="Could not load the reports" />
      ) : (
        <Stack>
          <Row gap="sm" align="flex-end">
            <FilterSelect
              label="Verdict"
              allLabel="All verdicts"
              options={FILTERS}
              value={verdict}
              onChange={setVerdict}
              w={180}
            />
          </Row>
          <TriageError error={reports.error} title="Could not load the reports" />
          <DataTable<ReportSummary>
            {...serverPageProps(list, reports)}
            aria-label="Reports"
            emptyState={
              verdict ? (
                <EmptyState title="No reports with this verdict">Choose another verdict.</EmptyState>
              ) : (
                <EmptyState
                  title="No reports yet"
                  icon={<IconFlag size={26} />}
                  actions={
                    <Button
                      component={Link}
                      to={accountPath(account.id, 'integration')}
                      variant="light"
                      leftSection={<IconPlugConnected size={16} aria-hidden />}
                    >
                      Set up reporting
                    </Button>
                  }
                >
                  Employees report suspicious mail with the Report phishing button in Outlook, or by
                  forwarding it to your reporting address (both are set up under Integrations). A reported
                  simulation is credited to the reporter at once; anything else arrives here.
                </EmptyState>
              )
            }
            columns={[
              {
                accessor: 'subject',
                title: 'Subject',
                render: (r) => (
                  <Stack gap={0} miw={0}>
                    <Anchor
                      component={Link}
                      to={reportPath(r)}
                      size="sm"
                      fw={500}
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {r.subject || '(no subject)'}
                    </Anchor>
                    {/* On phones the sender and time columns are hidden: they go here. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                      From {r.sender} · {plural(r.reporter_count, 'reporter')} ·{' '}
                      <DateText value={r.last_reported_at} />
                    </Text>
                  </Stack>
                ),
              },
              {
                accessor: 'sender',
                title: 'Sender',
                render: (r) => (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {r.sender}
                  </Text>
                ),
                visibleMediaQuery: WIDE_ONLY,
              },
              {
                accessor: 'reporter_count',
                title: 'Reporters',
                textAlign: 'right',
                render: (r) => formatNumber(r.reporter_count),
                visibleMediaQuery: WIDE_ONLY,
              },
              {
                accessor: 'last_reported_at',
                title: 'Last reported',
                noWrap: true,
                render: (r) => <DateText value={r.last_reported_at} />,
                visibleMediaQuery: WIDE_ONLY,
              },
              {
                accessor: 'verdict',
                title: 'Verdict',
                render: (r) => <VerdictBadge verdict={r.verdict} />,
              },
            ]}
          />
        </Stack>
      )}
    </>
  );
}
