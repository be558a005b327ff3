import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

interface ListSearchProps
  extends Omit<TextInputProps, 'type' | 'leftSection' | 'value' | 'onChange' | 'list'> {
  /** The list's state (`useListState`): the box shows `search`, the list asks with its debounced `query`. */
  list: { search: string; setSearch: (search: string) => void };
}

/** The search box of a server-side list. */
export function ListSearch({ list, ...props }: ListSearchProps) {
  return (
    <TextInput
      type="search"
      leftSection={<IconSearch size={16} aria-hidden />}
      value={list.search}
      onChange={(e) => list.setSearch(e.currentTarget.value)}
      {...props}
    />
  );
}
