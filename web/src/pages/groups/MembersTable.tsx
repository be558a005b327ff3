import { Button, Group as Row, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUserMinus } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { Employee, Group } from '../../api/types';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { plural } from '../../components/format';
import { ListSearch } from '../../components/ListSearch';
import { useClampPage, useListState } from '../../components/list-state';
import { serverPageProps } from '../../components/table';
import { membershipChanged } from './membership';

const fullName = (e: Employee) => `${e.first_name} ${e.last_name}`;

/** The members of a group, paged by the server, with checkboxes to remove several at once. */
export function MembersTable({ accountId, group }: { accountId: number; group: Group }) {
  const queryClient = useQueryClient();
  const list = useListState();
  const [selected, setSelected] = useState<Employee[]>([]);
  const [confirming, setConfirming] = useState(false);
  const members = useQuery({
    queryKey: ['members', accountId, group.id, list.query, list.page, list.pageSize],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/groups/{groupId}/members', {
          params: {
            path: { accountId, groupId: group.id },
            query: { search: list.query, page: list.page, page_size: list.pageSize },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(members.data, list.page, list.pageSize, list.setPage);
  // A new group (or a new search) starts with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on these changes only
  useEffect(() => setSelected([]), [group.id, list.query]);

  const remove = async () => {
    const answer = await call(
      api.POST('/accounts/{accountId}/groups/{groupId}/members/remove', {
        params: { path: { accountId, groupId: group.id } },
        body: { employee_ids: selected.map((e) => e.id) },
      }),
    );
    membershipChanged(queryClient, accountId, answer.group);
    notifications.show({ color: 'teal', message: `Removed ${plural(answer.removed, 'member')}` });
    setSelected([]);
  };

  return (
    <Stack component="section" aria-label="Members">
      <Row justify="space-between" gap="sm">
        <ListSearch
          list={list}
          aria-label="Search members"
          placeholder="Search members by name or email"
          style={{ flex: '1 1 16rem' }}
          maw={400}
        />
        <Row gap="xs">
          {selected.length > 0 && <Text size="sm">{selected.length} selected</Text>}
          <Button
            color="red"
            variant="light"
            leftSection={<IconUserMinus size={16} aria-hidden />}
            disabled={selected.length === 0}
            onClick={() => setConfirming(true)}
          >
            Remove selected
          </Button>
        </Row>
      </Row>
      <ErrorAlert error={members.error} title="Could not load the members" />
      <DataTable<Employee>
        {...serverPageProps(list, members)}
        aria-label="Members"
        selectedRecords={selected}
        onSelectedRecordsChange={setSelected}
        allRecordsSelectionCheckboxProps={{ 'aria-label': 'Select all members on this page' }}
        getRecordSelectionCheckboxProps={(e) => ({ 'aria-label': `Select ${fullName(e)}` })}
        emptyState={
          list.query ? (
            <EmptyState title="No member matches your search" />
          ) : (
            <EmptyState title="This group has no members yet">
              Use “Add members” to pick employees, or “Add from CSV” for a list of email addresses.
            </EmptyState>
          )
        }
        columns={[
          { accessor: 'name', title: 'Name', render: (e) => `${e.last_name}, ${e.first_name}` },
          { accessor: 'email', title: 'Email' },
        ]}
      />
      <ConfirmDelete
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Remove members?"
        confirmLabel="Remove"
        onConfirm={remove}
        fieldLabels={FORM_FIELDS.groupMembers.names}
      >
        {plural(selected.length, 'employee')} will leave the group <strong>{group.name}</strong>. They stay
        employees of the account.
      </ConfirmDelete>
    </Stack>
  );
}
