import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, call } from '../api/client';
import { accountPath } from './account-context';

/** Operators: jump to another customer account, staying on the same kind of page. */
export function AccountSwitcher({ accountId }: { accountId: number | null }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [search, setSearch] = useState('');
  const current = useQuery({
    queryKey: ['account', accountId],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}', { params: { path: { accountId: accountId ?? 0 } } })),
    enabled: accountId !== null,
  });
  // While the box shows the chosen account's name, list all accounts rather than that one.
  const [debounced] = useDebouncedValue(search === current.data?.name ? '' : search, 250);
  const accounts = useQuery({
    queryKey: ['accounts', 'switcher', debounced],
    queryFn: () => call(api.GET('/accounts', { params: { query: { search: debounced, page_size: 50 } } })),
    placeholderData: keepPreviousData,
  });

  const options = new Map<string, string>();
  if (current.data) options.set(String(current.data.id), current.data.name);
  for (const account of accounts.data?.results ?? []) options.set(String(account.id), account.name);

  const choose = (value: string | null) => {
    if (!value || Number(value) === accountId) return;
    // Keep the section (employees, groups…) but not a specific object of the old account.
    const section = location.pathname.split('/').slice(3, 4).filter(Boolean);
    navigate(accountPath(Number(value), ...section));
    setSearch('');
  };

  return (
    <Select
      aria-label="Switch account"
      placeholder="Choose an account"
      data={[...options].map(([value, label]) => ({ value, label }))}
      value={accountId === null ? null : String(accountId)}
      onChange={choose}
      searchable
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={accounts.isFetching ? 'Searching…' : 'No account matches'}
      w={{ base: '100%', sm: 220 }}
      size="sm"
      comboboxProps={{ withinPortal: true }}
    />
  );
}
