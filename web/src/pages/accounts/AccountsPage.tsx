import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { IconPencil, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import type { Account } from '../../api/types';
import { AddButton } from '../../components/AddButton';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { IconButton } from '../../components/IconButton';
import { useClampPage, useListState } from '../../components/list-state';
import { PageHeader } from '../../components/PageHeader';
import { serverPageProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { accountPath } from '../../layout/account-context';
import { AccountFormModal } from './AccountFormModal';

/** Operators: every customer account; create, rename, open. */
export function AccountsPage() {
  const navigate = useNavigate();
  const list = useListState();
  const form = useDialog<Account | null>();
  const accounts = useQuery({
    queryKey: ['accounts', 'list', list.query, list.page, list.pageSize],
    queryFn: () =>
      call(
        api.GET('/accounts', {
          params: { query: { search: list.query, page: list.page, page_size: list.pageSize } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(accounts.data, list.page, list.pageSize, list.setPage);

  return (
    <>
      <PageHeader
        title="Customer accounts"
        description="Each customer account holds its own employees, groups, campaigns and API keys."
        actions={<AddButton onClick={() => form.open(null)}>New account</AddButton>}
      />
      <Stack>
        <TextInput
          aria-label="Search accounts"
          placeholder="Search by name"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={list.search}
          onChange={(e) => list.setSearch(e.currentTarget.value)}
          maw={360}
        />
        <ErrorAlert error={accounts.error} title="Could not load the accounts" />
        <DataTable<Account>
          {...serverPageProps(list, accounts)}
          aria-label="Customer accounts"
          emptyState={
            <EmptyState title={list.query ? 'No account matches your search' : 'No customer accounts yet'}>
              {list.query ? 'Try another name.' : 'Create the first one with “New account”.'}
            </EmptyState>
          }
          columns={[
            {
              accessor: 'name',
              title: 'Name',
              render: (a) => (
                <Anchor component={Link} to={accountPath(a.id)} fw={500}>
                  {a.name}
                </Anchor>
              ),
            },
            { accessor: 'id', title: 'ID', width: 80, visibleMediaQuery: WIDE_ONLY },
            {
              accessor: 'created_at',
              title: 'Created',
              render: (a) => <DateText value={a.created_at} />,
              visibleMediaQuery: WIDE_ONLY,
            },
            {
              accessor: 'actions',
              title: 'Actions',
              textAlign: 'right',
              render: (a) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    aria-label={`Open ${a.name}`}
                    onClick={() => navigate(accountPath(a.id))}
                  >
                    Open
                  </Button>
                  <IconButton
                    tooltip="Rename"
                    label={`Edit ${a.name}`}
                    icon={IconPencil}
                    onClick={() => form.open(a)}
                  />
                </Group>
              ),
            },
          ]}
        />
      </Stack>
      <AccountFormModal opened={form.opened} onClose={form.close} account={form.target} />
    </>
  );
}
