import { NativeSelect, type NativeSelectProps } from '@mantine/core';

interface FilterSelectProps<T extends string> extends Omit<NativeSelectProps, 'data' | 'value' | 'onChange'> {
  /** The first choice, the empty value: no filter ("All statuses"). */
  allLabel: string;
  options: { value: T; label: string }[];
  value: T | '';
  onChange: (value: T | '') => void;
}

/** A filter of a list as a select: no filter first, then the options (see `useListFilter`). */
export function FilterSelect<T extends string>({
  allLabel,
  options,
  value,
  onChange,
  ...props
}: FilterSelectProps<T>) {
  return (
    <NativeSelect
      {...props}
      data={[{ value: '', label: allLabel }, ...options]}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value as T | '')}
    />
  );
}
