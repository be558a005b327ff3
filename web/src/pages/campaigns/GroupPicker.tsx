import { MultiSelect, Group as Row, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { plural } from '../../components/format';

export interface PickedGroup {
  id: number;
  name: string;
}

interface GroupPickerProps {
  accountId: number;
  value: PickedGroup[];
  onChange: (groups: PickedGroup[]) => void;
  disabled?: boolean;
  description?: string;
  error?: string | undefined;
  /** Default: "Target groups". */
  label?: string;
}

/** "Target groups": a multi-select that searches the account's groups on the server. */
export function GroupPicker({
  accountId,
  value,
  onChange,
  disabled,
  description,
  error,
  label = 'Target groups',
}: GroupPickerProps) {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 250);
  const groups = useQuery({
    queryKey: ['groups', accountId, 'picker', query],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/groups', {
          params: { path: { accountId }, query: { search: query, page_size: 50 } },
        }),
      ),
    placeholderData: keepPreviousData,
    enabled: !disabled,
  });
  const found = groups.data?.results ?? [];
  const counts = new Map(found.map((g) => [String(g.id), g.employee_count]));
  // The chosen groups keep their names even when the current search does not list them.
  const names = new Map(value.map((g) => [String(g.id), g.name]));
  for (const g of found) names.set(String(g.id), g.name);

  return (
    <MultiSelect
      label={label}
      description={description}
      placeholder={value.length === 0 ? 'Search groups by name' : undefined}
      data={[...names].map(([id, name]) => ({ value: id, label: name }))}
      value={value.map((g) => String(g.id))}
      onChange={(ids) => onChange(ids.map((id) => ({ id: Number(id), name: names.get(id) ?? id })))}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server searched already; show what it found (chosen groups stay as pills).
      filter={({ options }) => options.filter((o) => 'value' in o && counts.has(o.value))}
      nothingFoundMessage={groups.isFetching ? 'Searching…' : 'No group matches'}
      renderOption={({ option }) => (
        <Row justify="space-between" wrap="nowrap" w="100%" gap="sm">
          <Text size="sm">{option.label}</Text>
          <Text size="xs" c="dimmed">
            {plural(counts.get(option.value) ?? 0, 'member')}
          </Text>
        </Row>
      )}
      disabled={disabled}
      error={error}
      clearable={!disabled}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
