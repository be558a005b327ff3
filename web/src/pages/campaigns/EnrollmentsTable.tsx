import {
  Button,
  NativeSelect,
  Group as Row,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconMail, IconMailForward, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { Link } from 'react-router';
import { API_BASE, api, call } from '../../api/client';
import { type Campaign, ENROLLMENT_STATUSES, type Enrollment, type EnrollmentStatus } from '../../api/types';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { IconButton } from '../../components/IconButton';
import { invalidateAccount } from '../../components/invalidate';
import { useClampPage, useListState } from '../../components/list-state';
import { ENROLLMENT_COLORS, StatusBadge, statusLabel } from '../../components/StatusBadge';
import { pagedTableProps, pageSizeProps, WIDE_ONLY } from '../../components/table';
import { accountPath } from '../../layout/account-context';
import { scoreText } from './campaign-format';

const fullName = (e: Enrollment) => `${e.employee.first_name} ${e.employee.last_name}`;
/** A deleted employee's record: "Deleted employee #12", their name and address gone. */
const isDeleted = (e: Enrollment) => e.employee_deleted_at !== null;

interface EnrollmentsTableProps {
  accountId: number;
  campaign: Campaign;
  live: boolean;
}

/** Everyone enrolled, paged and filtered by the server, with the CSV export of all of them. */
export function EnrollmentsTable({ accountId, campaign, live }: EnrollmentsTableProps) {
  const list = useListState();
  const [status, setStatus] = useState<EnrollmentStatus | ''>('');
  const params = { status, search: list.query, page: list.page, page_size: list.pageSize };
  const enrollments = useQuery({
    queryKey: ['enrollments', accountId, campaign.id, params],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/campaigns/{campaignId}/enrollments', {
          params: { path: { accountId, campaignId: campaign.id }, query: params },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 20_000 : false,
    // Invitations change in the background (the mail worker): read again whenever the page opens.
    staleTime: 0,
  });
  useClampPage(enrollments.data, list.page, list.pageSize, list.setPage);
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: (e: Enrollment) =>
      call(
        api.POST('/accounts/{accountId}/campaigns/{campaignId}/enrollments/{enrollmentId}/resend', {
          params: { path: { accountId, campaignId: campaign.id, enrollmentId: e.id } },
        }),
      ),
    onSuccess: (_, e) => {
      notifications.show({ color: 'teal', message: `A new invitation to ${fullName(e)} is on its way` });
      invalidateAccount(queryClient, accountId, 'enrollments', 'messages');
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const filtered = Boolean(list.query || status);

  return (
    <Stack component="section" aria-labelledby="people-heading" gap="sm">
      <Row justify="space-between" align="flex-end">
        <Title order={2} size="h3" id="people-heading">
          People
        </Title>
        <Row gap="xs">
          <Button
            component={Link}
            to={`${accountPath(accountId, 'outbox')}?campaign=${campaign.id}`}
            variant="default"
            leftSection={<IconMail size={16} aria-hidden />}
          >
            Messages
          </Button>
          <Button
            component="a"
            href={`${API_BASE}/accounts/${accountId}/campaigns/${campaign.id}/enrollments.csv`}
            download
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
          >
            Export CSV
          </Button>
        </Row>
      </Row>
      <Row gap="sm" align="flex-end">
        <TextInput
          aria-label="Search people"
          placeholder="Search by name or email"
          type="search"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={list.search}
          onChange={(e) => list.setSearch(e.currentTarget.value)}
          style={{ flex: '1 1 14rem' }}
          maw={400}
        />
        <NativeSelect
          aria-label="Status"
          data={[
            { value: '', label: 'All statuses' },
            ...ENROLLMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
          ]}
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value as EnrollmentStatus | '');
            list.setPage(1);
          }}
          w={170}
        />
      </Row>
      <ErrorAlert error={enrollments.error} title="Could not load the people" />
      <DataTable<Enrollment>
        {...pagedTableProps}
        aria-label="People in this campaign"
        records={enrollments.data?.results ?? []}
        totalRecords={enrollments.data?.count ?? 0}
        page={list.page}
        onPageChange={list.setPage}
        recordsPerPage={list.pageSize}
        {...pageSizeProps}
        onRecordsPerPageChange={list.setPageSize}
        fetching={enrollments.isFetching}
        emptyState={
          filtered ? (
            <EmptyState title="Nobody matches">Try another search or status.</EmptyState>
          ) : (
            <EmptyState title="Nobody is enrolled">
              The target groups had no members when the campaign was launched.
            </EmptyState>
          )
        }
        columns={[
          {
            accessor: 'name',
            title: 'Name',
            render: (e) =>
              isDeleted(e) ? (
                <Text size="sm" c="dimmed" fs="italic" span>
                  {fullName(e)}
                </Text>
              ) : (
                `${e.employee.last_name}, ${e.employee.first_name}`
              ),
          },
          {
            accessor: 'email',
            title: 'Email',
            render: (e) => e.employee.email,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'status',
            title: 'Status',
            render: (e) => <StatusBadge status={e.status} color={ENROLLMENT_COLORS[e.status]} />,
          },
          {
            accessor: 'started_at',
            title: 'Started',
            render: (e) => <DateText value={e.started_at} />,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'completed_at',
            title: 'Completed',
            render: (e) => <DateText value={e.completed_at} />,
            visibleMediaQuery: WIDE_ONLY,
          },
          { accessor: 'score', title: 'Score', textAlign: 'right', render: (e) => scoreText(e.score) },
          {
            accessor: 'invitation',
            title: 'Invitation',
            render: (e) =>
              e.invitation ? (
                <Text size="sm" span>
                  {statusLabel(e.invitation.status)}
                  {e.invitation.sent_at && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      <DateText value={e.invitation.sent_at} />
                    </Text>
                  )}
                </Text>
              ) : (
                <Text size="sm" c="dimmed" span>
                  None
                </Text>
              ),
            visibleMediaQuery: WIDE_ONLY,
          },
          ...(campaign.status === 'active'
            ? [
                {
                  accessor: 'actions',
                  title: <VisuallyHidden>Actions</VisuallyHidden>,
                  textAlign: 'right' as const,
                  render: (e: Enrollment) => {
                    const waiting = e.invitation?.status === 'queued' || e.invitation?.status === 'sending';
                    if (isDeleted(e)) return null;
                    return (
                      <IconButton
                        tooltip={waiting ? 'An invitation is waiting to be sent' : 'Resend invitation'}
                        label={`Resend invitation to ${fullName(e)}`}
                        icon={IconMailForward}
                        disabled={e.status === 'completed' || waiting || resend.isPending}
                        onClick={() => resend.mutate(e)}
                      />
                    );
                  },
                },
              ]
            : []),
        ]}
      />
    </Stack>
  );
}
