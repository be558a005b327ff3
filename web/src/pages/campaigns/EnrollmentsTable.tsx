import { Button, Group as Row, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMail, IconMailForward } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link } from 'react-router';
import { API_BASE, api, call } from '../../api/client';
import { type Campaign, ENROLLMENT_STATUSES, type Enrollment, type EnrollmentStatus } from '../../api/types';
import { CsvDownloadButton } from '../../components/CsvDownloadButton';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilterSelect } from '../../components/FilterSelect';
import { IconButton } from '../../components/IconButton';
import { invalidateAccount } from '../../components/invalidate';
import { ListSearch } from '../../components/ListSearch';
import { useClampPage, useListFilter, useListState } from '../../components/list-state';
import { PageSection } from '../../components/PageSection';
import { ENROLLMENT_COLORS, StatusBadge, statusLabel } from '../../components/StatusBadge';
import { serverPageProps, WIDE_ONLY } from '../../components/table';
import { accountPath } from '../../layout/account-context';
import { scoreText } from './campaign-format';
import { QuizAttempts } from './QuizAttempts';

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
  const [status, setStatus] = useListFilter<EnrollmentStatus>(list.setPage);
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
    <PageSection
      title="People"
      actions={
        <Row gap="xs">
          <Button
            component={Link}
            to={`${accountPath(accountId, 'outbox')}?campaign=${campaign.id}`}
            variant="default"
            leftSection={<IconMail size={16} aria-hidden />}
          >
            Messages
          </Button>
          <CsvDownloadButton
            href={`${API_BASE}/accounts/${accountId}/campaigns/${campaign.id}/enrollments.csv`}
          >
            Export CSV
          </CsvDownloadButton>
        </Row>
      }
    >
      <Row gap="sm" align="flex-end">
        <ListSearch
          list={list}
          aria-label="Search people"
          placeholder="Search by name or email"
          style={{ flex: '1 1 14rem' }}
          maw={400}
        />
        <FilterSelect
          aria-label="Status"
          allLabel="All statuses"
          options={ENROLLMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          value={status}
          onChange={setStatus}
          w={170}
        />
      </Row>
      <ErrorAlert error={enrollments.error} title="Could not load the people" />
      <DataTable<Enrollment>
        {...serverPageProps(list, enrollments)}
        aria-label="People in this campaign"
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
          // Each person's own due date (remedial training: days after their failure); a campaign's
          // due date is the same for everyone and shown on the page.
          ...(campaign.due_date === null
            ? [
                {
                  accessor: 'due_at',
                  title: 'Due',
                  render: (e: Enrollment) => <DateText value={e.due_at} />,
                },
              ]
            : []),
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
            accessor: 'attempt_count',
            title: 'Attempts',
            textAlign: 'right',
            render: (e) => <QuizAttempts enrollment={e} campaign={campaign} />,
          },
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
    </PageSection>
  );
}
