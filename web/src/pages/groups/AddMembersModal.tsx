import { Button, Modal, Group as Row, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { Employee, Group } from '../../api/types';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { plural } from '../../components/format';
import { ListSearch } from '../../components/ListSearch';
import { useListState } from '../../components/list-state';
import { pagedTableProps } from '../../components/table';
import { useOnOpen } from '../../components/use-on-open';
import { membershipChanged } from './membership';

interface AddMembersModalProps {
  accountId: number;
  group: Group;
  opened: boolean;
  onClose: () => void;
}

/** Search the account's employees, tick some (across pages), add them to the group. */
export function AddMembersModal({ accountId, group, opened, onClose }: AddMembersModalProps) {
  const queryClient = useQueryClient();
  const list = useListState(10);
  const [selected, setSelected] = useState<Employee[]>([]);
  const employees = useQuery({
    queryKey: ['employees', accountId, 'picker', list.query, list.page],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/employees', {
          params: {
            path: { accountId },
            query: { search: list.query, page: list.page, page_size: list.pageSize },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    enabled: opened,
  });
  const add = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/groups/{groupId}/members', {
          params: { path: { accountId, groupId: group.id } },
          body: { employee_ids: selected.map((e) => e.id) },
        }),
      ),
    onSuccess: (answer) => {
      membershipChanged(queryClient, accountId, answer.group);
      const already = selected.length - answer.added;
      notifications.show({
        color: 'teal',
        message: `Added ${plural(answer.added, 'member')}${already > 0 ? ` (${already} already in the group)` : ''}`,
      });
      onClose();
    },
  });

  useOnOpen(opened, () => {
    setSelected([]);
    list.setSearch('');
    add.reset();
  });

  return (
    <Modal opened={opened} onClose={onClose} title={`Add members to ${group.name}`} size="lg">
      <Stack>
        <ListSearch list={list} label="Search employees" placeholder="Name or email" data-autofocus />
        <DataTable<Employee>
          {...pagedTableProps}
          minHeight={150}
          aria-label="Employees to add"
          records={employees.data?.results ?? []}
          totalRecords={employees.data?.count ?? 0}
          page={list.page}
          onPageChange={list.setPage}
          recordsPerPage={list.pageSize}
          fetching={employees.isFetching}
          selectedRecords={selected}
          onSelectedRecordsChange={setSelected}
          allRecordsSelectionCheckboxProps={{ 'aria-label': 'Select all employees on this page' }}
          getRecordSelectionCheckboxProps={(e) => ({ 'aria-label': `Select ${e.first_name} ${e.last_name}` })}
          emptyState={
            <EmptyState title={list.query ? 'No employee matches' : 'This account has no employees yet'} />
          }
          columns={[
            { accessor: 'name', title: 'Name', render: (e) => `${e.last_name}, ${e.first_name}` },
            { accessor: 'email', title: 'Email' },
          ]}
        />
        <ErrorAlert error={add.error} fieldLabels={FORM_FIELDS.groupMembers.names} />
        <Row justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite">
            {selected.length === 0 ? 'Tick the employees to add.' : `${selected.length} selected`}
          </Text>
          <Row gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => add.mutate()} disabled={selected.length === 0} loading={add.isPending}>
              Add to group
            </Button>
          </Row>
        </Row>
      </Stack>
    </Modal>
  );
}
