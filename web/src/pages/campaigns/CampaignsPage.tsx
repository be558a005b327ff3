import { Anchor, Box, Button, NativeSelect, Progress, SegmentedControl, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import { CAMPAIGN_STATUSES, type Campaign, type CampaignStatus } from '../../api/types';
import { AddButton } from '../../components/AddButton';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatNumber } from '../../components/format';
import { useClampPage, useListFilter, useListState } from '../../components/list-state';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge, statusLabel } from '../../components/StatusBadge';
import { serverPageProps, WIDE_ONLY } from '../../components/table';
import { accountPath, useAccount } from '../../layout/account-context';
import { percentText } from './campaign-format';

/** "12 / 40" with a bar: completed of enrolled, as the API counts them. */
function Completion({ campaign: c }: { campaign: Campaign }) {
  if (c.enrolled_count === 0 && !c.launched_at) {
    return (
      <Text size="sm" c="dimmed">
        Not launched
      </Text>
    );
  }
  const rate = percentText(c.completion_rate);
  return (
    <Stack gap={4} miw={110}>
      <Text size="sm">
        {formatNumber(c.completed_count)} / {formatNumber(c.enrolled_count)}{' '}
        <Text span size="xs" c="dimmed">
          ({rate})
        </Text>
      </Text>
      <Progress
        value={c.completion_rate === null ? 0 : c.completion_rate * 100}
        size="sm"
        color="teal"
        aria-label={`${rate} completed`}
      />
    </Stack>
  );
}

/** /a/:accountId/campaigns — training campaigns, newest first, filtered by status. */
export function CampaignsPage() {
  const account = useAccount();
  const navigate = useNavigate();
  const list = useListState();
  const [status, changeStatus] = useListFilter<CampaignStatus>(list.setPage);
  const campaigns = useQuery({
    queryKey: ['campaigns', account.id, status, list.page, list.pageSize],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/campaigns', {
          params: {
            path: { accountId: account.id },
            query: { status, page: list.page, page_size: list.pageSize },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(campaigns.data, list.page, list.pageSize, list.setPage);
  const path = (c: Campaign) => accountPath(account.id, 'campaigns', c.id);
  const newCampaign = () => navigate(accountPath(account.id, 'campaigns', 'new'));
  const filterOptions = [
    { value: '', label: 'All' },
    ...CAMPAIGN_STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
  ];

  return (
    <>
      <PageHeader
        title="Training campaigns"
        description="A campaign enrolls the members of its target groups in courses and follows their progress."
        actions={<AddButton onClick={newCampaign}>New campaign</AddButton>}
      />
      <Stack>
        {/* Wide screens: a segmented control; phones: a select (six segments do not fit). */}
        <Box visibleFrom="sm">
          <SegmentedControl
            aria-label="Show campaigns by status"
            data={filterOptions}
            value={status}
            onChange={(value) => changeStatus(value as CampaignStatus | '')}
          />
        </Box>
        <NativeSelect
          hiddenFrom="sm"
          label="Status"
          data={[{ value: '', label: 'All statuses' }, ...filterOptions.slice(1)]}
          value={status}
          onChange={(e) => changeStatus(e.currentTarget.value as CampaignStatus | '')}
        />
        <ErrorAlert error={campaigns.error} title="Could not load the campaigns" />
        <DataTable<Campaign>
          {...serverPageProps(list, campaigns)}
          aria-label="Training campaigns"
          emptyState={
            status ? (
              <EmptyState title={`No ${statusLabel(status).toLowerCase()} campaigns`}>
                Choose another status, or “All”.
              </EmptyState>
            ) : (
              <EmptyState
                title="No training campaigns yet"
                actions={
                  <Button variant="light" onClick={newCampaign}>
                    Create the first campaign
                  </Button>
                }
              >
                Pick courses and the groups who should take them; launch now or schedule a start date.
              </EmptyState>
            )
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
              accessor: 'courses',
              title: 'Courses',
              render: (c) => <Names items={c.courses.map((x) => x.title)} />,
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'groups',
              title: 'Target groups',
              render: (c) => <Names items={c.groups.map((g) => g.name)} />,
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'due_date',
              title: 'Due',
              render: (c) => <DateText value={c.due_date} empty="Not set" />,
              visibleMediaQuery: WIDE_ONLY,
            },
            { accessor: 'completion', title: 'Completion', render: (c) => <Completion campaign={c} /> },
          ]}
        />
      </Stack>
    </>
  );
}

/** "Phishing, Passwords and MFA" or a dim "None". */
function Names({ items }: { items: string[] }) {
  if (items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Text size="sm" lineClamp={2} maw={260} title={items.join(', ')}>
      {items.join(', ')}
    </Text>
  );
}
