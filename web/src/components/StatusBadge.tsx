import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  draft: 'gray',
  scheduled: 'blue',
  running: 'teal',
  active: 'teal',
  paused: 'yellow',
  completed: 'indigo',
  finished: 'indigo',
  cancelled: 'red',
  canceled: 'red',
};

/** A campaign's lifecycle state as a coloured badge ("Draft", "Running"…). */
export function StatusBadge({ status }: { status: string }) {
  const label = status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ');
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light">
      {label}
    </Badge>
  );
}
