import { Badge, type BadgeProps } from '@mantine/core';

/** Colour per status word, for campaigns, enrollments and messages alike. */
const COLORS: Record<string, string> = {
  // campaigns
  draft: 'gray',
  scheduled: 'blue',
  active: 'teal',
  completed: 'indigo',
  archived: 'dark',
  // enrollments ("completed" as above)
  not_started: 'gray',
  in_progress: 'blue',
  overdue: 'red',
  // messages
  queued: 'gray',
  sending: 'blue',
  sent: 'teal',
  failed: 'red',
  cancelled: 'dark',
};

/**
 * An enrollment's status has its own colours: "completed" is the learner's success (teal), not a
 * campaign that was stopped (indigo). The progress chart uses the same ones.
 */
export const ENROLLMENT_COLORS: Record<string, string> = {
  not_started: 'gray',
  in_progress: 'blue',
  completed: 'teal',
  overdue: 'red',
};

/** "not_started" → "Not started" */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ');
}

/** A status as a coloured badge whose text says it ("Draft", "In progress", "Failed"…). */
export function StatusBadge({ status, ...props }: { status: string } & Omit<BadgeProps, 'children'>) {
  return (
    // Never narrower than its word: a table squeezing the column must not cut "Sent" to "Se…".
    <Badge color={COLORS[status] ?? 'gray'} variant="light" miw="max-content" {...props}>
      {statusLabel(status)}
    </Badge>
  );
}
