import { Badge, MultiSelect, Group as Row, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { useLimits } from '../../api/limits';

interface CoursePickerProps {
  accountId: number;
  value: string[];
  onChange: (keys: string[]) => void;
  /** Titles of the chosen courses, for keys the catalogue does not list (yet). */
  known?: { key: string; title: string }[];
  disabled?: boolean;
  description?: string;
  error?: string | undefined;
}

/** "Courses": built-in and the account's own courses, each with its length. */
export function CoursePicker({
  accountId,
  value,
  onChange,
  known = [],
  disabled,
  description,
  error,
}: CoursePickerProps) {
  const courses = useQuery({
    queryKey: ['courses', accountId],
    queryFn: () => call(api.GET('/accounts/{accountId}/courses', { params: { path: { accountId } } })),
  });
  const limits = useLimits();
  const all = courses.data?.results ?? [];
  const info = new Map(all.map((c) => [c.key, c]));
  const item = (c: { key: string; title: string }) => ({ value: c.key, label: c.title });
  const missing = known.filter((c) => !info.has(c.key)).map(item);
  const builtIn = all.filter((c) => c.built_in).map(item);
  const custom = all.filter((c) => !c.built_in).map(item);
  const data = [
    ...(builtIn.length ? [{ group: 'Built-in courses', items: builtIn }] : []),
    ...(custom.length || missing.length ? [{ group: 'Your courses', items: [...custom, ...missing] }] : []),
  ];

  return (
    <MultiSelect
      label="Courses"
      description={description}
      placeholder={value.length === 0 ? 'Choose one or more courses' : undefined}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      nothingFoundMessage={courses.isPending ? 'Loading…' : 'No course matches'}
      renderOption={({ option }) => {
        const course = info.get(option.value);
        return (
          <Row justify="space-between" wrap="nowrap" w="100%" gap="sm">
            <Text size="sm">{option.label}</Text>
            {course && (
              <Row gap={6} wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {course.minutes} min
                </Text>
                <Badge size="xs" variant="light" color={course.built_in ? 'gray' : 'indigo'}>
                  {course.built_in ? 'Built-in' : 'Custom'}
                </Badge>
              </Row>
            )}
          </Row>
        );
      }}
      disabled={disabled}
      error={error ?? (courses.error ? 'Could not load the courses' : undefined)}
      clearable={!disabled}
      maxValues={limits.campaign.courses_max}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
