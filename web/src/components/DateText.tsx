import { formatDateTime, formatRelative } from './format';

interface DateTextProps {
  value: string | null;
  /** Shown when there is no date. */
  empty?: string;
  /** Show the full date and time instead of "3 days ago". */
  absolute?: boolean;
}

/** A timestamp as relative text, with the exact date and time in its title. */
export function DateText({ value, empty = '—', absolute = false }: DateTextProps) {
  if (!value) return <span>{empty}</span>;
  const full = formatDateTime(value);
  return (
    <time dateTime={value} title={full}>
      {absolute ? full : formatRelative(value)}
    </time>
  );
}
