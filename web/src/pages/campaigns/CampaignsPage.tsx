import { Anchor, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link } from 'react-router';
import { type Campaign, listCampaigns } from '../../api/campaigns';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useClampPage, useListState } from '../../components/list-state';
import { PageHeader } from '../../components/PageHeader';
import { pagedTableProps, pageSizeProps, WIDE_ONLY } from '../../components/table';
import { accountPath, useAccount } from '../../layout/account-context';
import { StatusBadge } from './StatusBadge';

/** /a/:accountId/campaigns — training campaigns, newest first. */
export function CampaignsPage() {
  const account = useAccount();
  const list = useListState();
  const campaigns = useQuery({
    queryKey: ['campaigns', account.id, list.page, list.pageSize],
    queryFn: () => listCampaigns(account.id, { page: list.page, page_size: list.pageSize }),
    placeholderData: keepPreviousData,
  });
  useClampPage(campaigns.data, list.page, list.pageSize, list.setPage);
  const path = (c: Campaign) => accountPath(account.id, 'campaigns', c.id);

  return (
    <>
      <PageHeader title="Training campaigns" description="Campaigns train the groups they target." />
      <Stack>
        <ErrorAlert error={campaigns.error} title="Could not load the campaigns" />
        <DataTable<Campaign>
          {...pagedTableProps}
          aria-label="Training campaigns"
          records={campaigns.data?.results ?? []}
          totalRecords={campaigns.data?.count ?? 0}
          page={list.page}
          onPageChange={list.setPage}
          recordsPerPage={list.pageSize}
          {...pageSizeProps}
          onRecordsPerPageChange={list.setPageSize}
          fetching={campaigns.isFetching}
          emptyState={
            <EmptyState title="No training campaigns yet">
              Campaigns are created through the Customer API (or with <code>vigil campaign create</code>);
              they appear here once they exist.
            </EmptyState>
          }
          columns={[
            {
              accessor: 'name',
              title: 'Name',
              render: (c) => (
                <Anchor component={Link} to={path(c)} fw={500}>
                  {c.name}
                </Anchor>
              ),
            },
            { accessor: 'status', title: 'Status', render: (c) => <StatusBadge status={c.status} /> },
            {
              accessor: 'groups',
              title: 'Target groups',
              render: (c) =>
                c.groups.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                ) : (
                  c.groups.map((g) => g.name).join(', ')
                ),
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'created_at',
              title: 'Created',
              render: (c) => <DateText value={c.created_at} />,
              visibleMediaQuery: WIDE_ONLY,
            },
            { accessor: 'updated_at', title: 'Updated', render: (c) => <DateText value={c.updated_at} /> },
          ]}
        />
      </Stack>
    </>
  );
}
