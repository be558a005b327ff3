import { Anchor, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import type { Group } from '../../api/types';
import { AddButton } from '../../components/AddButton';
import { ConfirmDeleteOf } from '../../components/ConfirmDelete';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatNumber, plural } from '../../components/format';
import { invalidateAccount } from '../../components/invalidate';
import { ListSearch } from '../../components/ListSearch';
import { useClampPage, useListState } from '../../components/list-state';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { serverPageProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { accountPath, useAccount } from '../../layout/account-context';
import { GroupFormModal } from './GroupFormModal';

/** /a/:accountId/groups — the groups campaigns target, with their member counts. */
export function GroupsPage() {
  const account = useAccount();
  const queryClient = useQueryClient();
  const list = useListState();
  const form = useDialog<Group | null>();
  const deleting = useDialog<Group>();
  const groups = useQuery({
    queryKey: ['groups', account.id, list.query, list.page, list.pageSize],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/groups', {
          params: {
            path: { accountId: account.id },
            query: { search: list.query, page: list.page, page_size: list.pageSize },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(groups.data, list.page, list.pageSize, list.setPage);

  const remove = async (group: Group) => {
    await call(
      api.DELETE('/accounts/{accountId}/groups/{groupId}', {
        params: { path: { accountId: account.id, groupId: group.id } },
      }),
    );
    invalidateAccount(
      queryClient,
      account.id,
      'groups',
      'group',
      'overview',
      'employee',
      'campaigns',
      'campaign',
    );
    notifications.show({ color: 'teal', message: `Deleted group "${group.name}"` });
  };
  const path = (group: Group) => accountPath(account.id, 'groups', group.id);

  return (
    <>
      <PageHeader
        title="Groups"
        description="Groups of employees; training campaigns target groups."
        actions={<AddButton onClick={() => form.open(null)}>New group</AddButton>}
      />
      <Stack>
        <ListSearch list={list} aria-label="Search groups" placeholder="Search by name" maw={360} />
        <ErrorAlert error={groups.error} title="Could not load the groups" />
        <DataTable<Group>
          {...serverPageProps(list, groups)}
          aria-label="Groups"
          emptyState={
            list.query ? (
              <EmptyState title="No group matches your search">Try another name.</EmptyState>
            ) : (
              <EmptyState title="No groups yet">
                Create one with “New group”, then add employees to it.
              </EmptyState>
            )
          }
          columns={[
            {
              accessor: 'name',
              title: 'Name',
              render: (g) => (
                <Stack gap={0}>
                  <Anchor component={Link} to={path(g)} fw={500}>
                    {g.name}
                  </Anchor>
                  {g.description && (
                    <Text size="xs" c="dimmed" lineClamp={1} maw={420}>
                      {g.description}
                    </Text>
                  )}
                </Stack>
              ),
            },
            {
              accessor: 'employee_count',
              title: 'Members',
              textAlign: 'right',
              render: (g) => (
                <span title={plural(g.employee_count, 'member')}>{formatNumber(g.employee_count)}</span>
              ),
            },
            {
              accessor: 'updated_at',
              title: 'Updated',
              render: (g) => <DateText value={g.updated_at} />,
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'right',
              render: (g) => (
                <RowActions name={g.name} onEdit={() => form.open(g)} onDelete={() => deleting.open(g)} />
              ),
            },
          ]}
        />
      </Stack>
      <GroupFormModal accountId={account.id} opened={form.opened} onClose={form.close} group={form.target} />
      <ConfirmDeleteOf dialog={deleting} title="Delete group?" onConfirm={remove}>
        The group <strong>{deleting.target?.name}</strong> will be deleted. Its{' '}
        {plural(deleting.target?.employee_count ?? 0, 'member')} stay employees of the account.
      </ConfirmDeleteOf>
    </>
  );
}
