import { Anchor, Badge, Card, Group as Row, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import type { components } from '../../api/generated/admin-api';
import { BackLink } from '../../components/BackLink';
import { DateText } from '../../components/DateText';
import { EditDeleteButtons } from '../../components/EditDeleteButtons';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { invalidateAccount } from '../../components/invalidate';
import { Loading } from '../../components/Loading';
import { NotFoundPage } from '../../components/NotFoundPage';
import { PageHeader } from '../../components/PageHeader';
import { PageSection } from '../../components/PageSection';
import { pagedTableProps, WIDE_ONLY } from '../../components/table';
import { accountPath, useAccount } from '../../layout/account-context';
import { RecipientStatus } from '../phishing/results/RecipientsTable';
import { DeleteEmployeeDialog } from './DeleteEmployeeDialog';
import { EmployeeFormModal } from './EmployeeFormModal';
import { EmployeeTraining, useEmployeeTraining } from './EmployeeTraining';
import { InactiveBadge } from './InactiveBadge';

type HistoryItem = components['schemas']['PhishingHistoryItem'];

const PAGE_SIZE = 25;

/**
 * /a/:accountId/employees/:employeeId — one employee: who they are, their groups, their training
 * and their phishing simulations; edited and deleted here.
 */
export function EmployeePage() {
  const account = useAccount();
  const employeeId = Number(useParams().employeeId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Page 1's count: how many enrollments the delete dialog says stay.
  const training = useEmployeeTraining(account.id, employeeId, 1);
  const employee = useQuery({
    queryKey: ['employee', account.id, employeeId],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/employees/{employeeId}', {
          params: { path: { accountId: account.id, employeeId } },
        }),
      ),
    enabled: Number.isInteger(employeeId),
  });
  const history = useQuery({
    queryKey: ['employee-phishing', account.id, employeeId, page],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/employees/{employeeId}/phishing', {
          params: { path: { accountId: account.id, employeeId }, query: { page, page_size: PAGE_SIZE } },
          signal,
        }),
      ),
    enabled: Number.isInteger(employeeId),
    placeholderData: keepPreviousData,
  });
  const back = <BackLink to={accountPath(account.id, 'employees')}>Employees</BackLink>;
  if (employee.isPending && Number.isInteger(employeeId)) return <Loading />;
  if (!employee.data) return <NotFoundPage thing="employee" back={back} error={employee.error} />;
  const e = employee.data;
  const items = history.data?.results ?? [];
  const failed = items.filter((h) => h.clicked_at !== null).length;
  const reported = items.filter((h) => h.reported_at !== null).length;
  const remove = async () => {
    await call(
      api.DELETE('/accounts/{accountId}/employees/{employeeId}', {
        params: { path: { accountId: account.id, employeeId: e.id } },
      }),
    );
    notifications.show({ color: 'teal', message: `Deleted ${e.first_name} ${e.last_name}` });
    navigate(accountPath(account.id, 'employees'), { replace: true });
    // After leaving: the page's own queries would otherwise refetch a 404.
    queryClient.removeQueries({ queryKey: ['employee', account.id, e.id] });
    invalidateAccount(queryClient, account.id, 'employees', 'groups', 'group', 'members', 'overview');
  };

  return (
    <>
      <PageHeader
        title={`${e.first_name} ${e.last_name}`}
        above={back}
        description={
          <>
            {e.email}
            <InactiveBadge active={e.active} />
          </>
        }
        actions={
          <EditDeleteButtons
            noun="employee"
            onEdit={() => setEditing(true)}
            onDelete={() => setDeleting(true)}
          />
        }
      />
      <Stack gap="xl">
        <PageSection title="Groups">
          {e.groups.length === 0 ? (
            <Text c="dimmed" size="sm">
              Not in any group.
            </Text>
          ) : (
            <Row gap="xs">
              {e.groups.map((g) => (
                <Badge
                  key={g.id}
                  component={Link}
                  to={accountPath(account.id, 'groups', g.id)}
                  variant="light"
                  style={{ cursor: 'pointer', textTransform: 'none' }}
                >
                  {g.name}
                </Badge>
              ))}
            </Row>
          )}
        </PageSection>
        <EmployeeTraining accountId={account.id} employeeId={e.id} firstName={e.first_name} />
        <PageSection title="Phishing simulations">
          {history.data && history.data.count > 0 && history.data.count <= items.length && (
            <SimpleGrid cols={{ base: 3 }} spacing="sm" component="dl" m={0} maw={560}>
              <Card withBorder padding="sm">
                <Text size="sm" c="dimmed" component="dt">
                  Simulations
                </Text>
                <Text component="dd" m={0} fw={700} fz={22}>
                  {history.data.count}
                </Text>
              </Card>
              <Card withBorder padding="sm">
                <Text size="sm" c="dimmed" component="dt">
                  Clicked
                </Text>
                <Text component="dd" m={0} fw={700} fz={22}>
                  {failed}
                </Text>
              </Card>
              <Card withBorder padding="sm">
                <Text size="sm" c="dimmed" component="dt">
                  Reported
                </Text>
                <Text component="dd" m={0} fw={700} fz={22}>
                  {reported}
                </Text>
              </Card>
            </SimpleGrid>
          )}
          <ErrorAlert error={history.error} title="Could not load the simulations" />
          <DataTable<HistoryItem>
            {...pagedTableProps}
            aria-label="Phishing simulations"
            idAccessor="recipient_id"
            records={items}
            totalRecords={history.data?.count ?? 0}
            page={page}
            onPageChange={setPage}
            recordsPerPage={PAGE_SIZE}
            fetching={history.isFetching}
            minHeight={items.length ? undefined : 150}
            emptyState={
              <EmptyState title="No simulations yet">
                Phishing simulations sent to {e.first_name} will show here.
              </EmptyState>
            }
            columns={[
              {
                accessor: 'campaign',
                title: 'Campaign',
                render: (h) => (
                  <Anchor
                    component={Link}
                    to={accountPath(account.id, 'phishing', 'campaigns', h.campaign.id, 'results')}
                  >
                    {h.campaign.name}
                  </Anchor>
                ),
              },
              {
                accessor: 'status',
                title: 'Result',
                render: (h) => <RecipientStatus status={h.status} reported={h.reported_at !== null} />,
              },
              {
                accessor: 'sent_at',
                title: 'Delivered',
                render: (h) => <DateText value={h.sent_at ?? null} empty="Not yet" />,
              },
              {
                accessor: 'clicked_at',
                title: 'Clicked',
                render: (h) => <DateText value={h.clicked_at} />,
                visibleMediaQuery: WIDE_ONLY,
              },
              {
                accessor: 'reported_at',
                title: 'Reported',
                render: (h) => <DateText value={h.reported_at} />,
                visibleMediaQuery: WIDE_ONLY,
              },
              {
                accessor: 'training_assigned_at',
                title: 'Training',
                render: (h) => (h.training_assigned_at ? 'Assigned' : '—'),
                visibleMediaQuery: WIDE_ONLY,
              },
            ]}
          />
        </PageSection>
      </Stack>
      <EmployeeFormModal
        accountId={account.id}
        opened={editing}
        onClose={() => setEditing(false)}
        employee={e}
      />
      <DeleteEmployeeDialog
        opened={deleting}
        onClose={() => setDeleting(false)}
        employee={e}
        groups={e.groups}
        enrollments={training.data?.count}
        onConfirm={remove}
      />
    </>
  );
}
