import { Anchor, Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileImport, IconUserPlus } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable, type DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { API_BASE, api, call } from '../../api/client';
import type { AdminEmployee, EmployeeSort } from '../../api/types';
import { CsvDownloadButton } from '../../components/CsvDownloadButton';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { invalidateAccount } from '../../components/invalidate';
import { ListSearch } from '../../components/ListSearch';
import { useClampPage, useListState } from '../../components/list-state';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { serverPageProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { accountPath, useAccount } from '../../layout/account-context';
import { DeleteEmployeeDialog } from './DeleteEmployeeDialog';
import { EmployeeFormModal } from './EmployeeFormModal';
import { InactiveBadge } from './InactiveBadge';

const fullName = (e: AdminEmployee) => `${e.first_name} ${e.last_name}`;

/** /a/:accountId/employees — server-side search, sort and pages (fast at 100,000 employees). */
export function EmployeesPage() {
  const account = useAccount();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useListState();
  const [sort, setSort] = useState<DataTableSortStatus<AdminEmployee>>({
    columnAccessor: 'last_name',
    direction: 'asc',
  });
  const form = useDialog<AdminEmployee | null>();
  const deleting = useDialog<AdminEmployee>();

  const params = {
    search: list.query,
    page: list.page,
    page_size: list.pageSize,
    sort: sort.columnAccessor as EmployeeSort,
    order: sort.direction,
  };
  const employees = useQuery({
    queryKey: ['employees', account.id, params],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/employees', {
          params: { path: { accountId: account.id }, query: params },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(employees.data, list.page, list.pageSize, list.setPage);

  const remove = async (employee: AdminEmployee) => {
    await call(
      api.DELETE('/accounts/{accountId}/employees/{employeeId}', {
        params: { path: { accountId: account.id, employeeId: employee.id } },
      }),
    );
    invalidateAccount(
      queryClient,
      account.id,
      'employees',
      'employee',
      'groups',
      'group',
      'members',
      'overview',
    );
    notifications.show({ color: 'teal', message: `Deleted ${fullName(employee)}` });
  };
  const empty = !list.query && employees.data?.count === 0;

  return (
    <>
      <PageHeader
        title="Employees"
        description="The people of this account who receive training."
        actions={
          <>
            <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => form.open(null)}>
              Add employee
            </Button>
            <Button
              variant="default"
              leftSection={<IconFileImport size={16} aria-hidden />}
              onClick={() => navigate(accountPath(account.id, 'employees', 'import'))}
            >
              Import CSV
            </Button>
            <CsvDownloadButton href={`${API_BASE}/accounts/${account.id}/employees/export.csv`}>
              Export CSV
            </CsvDownloadButton>
          </>
        }
      />
      <Stack>
        <ListSearch
          list={list}
          aria-label="Search employees"
          placeholder="Search by name or email"
          maw={400}
        />
        <ErrorAlert error={employees.error} title="Could not load the employees" />
        <DataTable<AdminEmployee>
          {...serverPageProps(list, employees)}
          aria-label="Employees"
          sortStatus={sort}
          onSortStatusChange={(status) => {
            setSort(status);
            list.setPage(1);
          }}
          emptyState={
            empty ? (
              <EmptyState title="No employees yet">
                Add one with “Add employee”, or import a CSV file.
              </EmptyState>
            ) : (
              <EmptyState title="No employee matches your search">
                Try part of a name or an email address.
              </EmptyState>
            )
          }
          columns={[
            {
              accessor: 'last_name',
              title: 'Last name',
              sortable: true,
              render: (e) => (
                <>
                  <Anchor component={Link} to={accountPath(account.id, 'employees', e.id)}>
                    {e.last_name}
                  </Anchor>
                  <InactiveBadge active={e.active} />
                </>
              ),
            },
            { accessor: 'first_name', title: 'First name', sortable: true },
            { accessor: 'email', title: 'Email', sortable: true },
            {
              accessor: 'created_at',
              title: 'Added',
              sortable: true,
              render: (e) => <DateText value={e.created_at} />,
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'right',
              render: (e) => (
                <RowActions
                  name={fullName(e)}
                  onEdit={() => form.open(e)}
                  onDelete={() => deleting.open(e)}
                />
              ),
            },
          ]}
        />
      </Stack>
      <EmployeeFormModal
        accountId={account.id}
        opened={form.opened}
        onClose={form.close}
        employee={form.target}
      />
      <DeleteEmployeeDialog
        opened={deleting.opened}
        onClose={deleting.close}
        employee={deleting.target}
        onConfirm={() => (deleting.target ? remove(deleting.target) : Promise.resolve())}
      />
    </>
  );
}
