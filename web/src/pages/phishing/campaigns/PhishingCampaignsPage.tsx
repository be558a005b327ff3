import { Anchor, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../../../api/client';
import { AddButton } from '../../../components/AddButton';
import { DateText } from '../../../components/DateText';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatNumber } from '../../../components/format';
import { useClampPage, useListState } from '../../../components/list-state';
import { PageHeader } from '../../../components/PageHeader';
import { StatusBadge } from '../../../components/StatusBadge';
import { serverPageProps, WIDE_ONLY } from '../../../components/table';
import { accountPath, useAccount } from '../../../layout/account-context';
import type { PhishingCampaign } from './phishing-api';

/** /a/:accountId/phishing — phishing simulation campaigns, newest first, with their figures. */
export function PhishingCampaignsPage() {
  const account = useAccount();
  const navigate = useNavigate();
  const list = useListState();
  const campaigns = useQuery({
    queryKey: ['phishing-campaigns', account.id, list.page, list.pageSize],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/phishing/campaigns', {
          params: { path: { accountId: account.id }, query: { page: list.page, page_size: list.pageSize } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(campaigns.data, list.page, list.pageSize, list.setPage);
  const path = (c: PhishingCampaign) => accountPath(account.id, 'phishing', 'campaigns', c.id);
  return (
    <>
      <PageHeader
        title="Phishing simulations"
        description="A campaign sends simulated phishing to its target groups at random moments in a send window, and teaches those who fall for it."
        actions={
          <AddButton onClick={() => navigate(accountPath(account.id, 'phishing', 'campaigns', 'new'))}>
            New campaign
          </AddButton>
        }
      />
      <Stack>
        <ErrorAlert error={campaigns.error} title="Could not load the campaigns" />
        <DataTable<PhishingCampaign>
          {...serverPageProps(list, campaigns)}
          aria-label="Phishing campaigns"
          emptyState={
            <EmptyState title="No phishing campaigns yet">Create one to test your people.</EmptyState>
          }
          onRowClick={({ record }) => navigate(path(record))}
          columns={[
            {
              accessor: 'name',
              title: 'Campaign',
              render: (c) => (
                <Anchor component={Link} to={path(c)} fw={500} onClick={(e) => e.stopPropagation()}>
                  {c.name}
                </Anchor>
              ),
            },
            { accessor: 'status', render: (c) => <StatusBadge status={c.status} /> },
            {
              accessor: 'figures',
              title: 'Delivered / clicked',
              render: (c) =>
                c.figures ? (
                  <Text size="sm">
                    {formatNumber(c.figures.delivered)} / {formatNumber(c.figures.clicked)}{' '}
                    <Text span size="xs" c="dimmed">
                      of {formatNumber(c.figures.recipients)}
                    </Text>
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    Not launched
                  </Text>
                ),
            },
            {
              accessor: 'window_start_at',
              title: 'Window',
              visibleMediaQuery: WIDE_ONLY,
              render: (c) =>
                c.window_start_at ? (
                  <Text size="sm">
                    <DateText value={c.window_start_at} absolute /> –{' '}
                    {c.window_end_at ? <DateText value={c.window_end_at} absolute /> : '…'}
                  </Text>
                ) : (
                  '—'
                ),
            },
          ]}
        />
      </Stack>
    </>
  );
}
