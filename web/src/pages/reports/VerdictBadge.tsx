import { Alert, Badge, type BadgeProps, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { ApiError } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { VERDICT_COLORS, VERDICT_LABELS, type Verdict } from './reports-api';

/** A report's verdict as a badge; "Not judged" until an administrator or a rule gives one. */
export function VerdictBadge({
  verdict,
  ...props
}: { verdict: Verdict | null } & Omit<BadgeProps, 'children'>) {
  return (
    <Badge
      color={verdict ? VERDICT_COLORS[verdict] : 'gray'}
      variant={verdict ? 'light' : 'outline'}
      miw="max-content"
      {...props}
    >
      {verdict ? VERDICT_LABELS[verdict] : 'Not judged'}
    </Badge>
  );
}

/** Whether an error is the triage permission's refusal (403), not a failure. */
export const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/**
 * An error of a triage route: a 403 (an administrator without the triage permission) is said
 * plainly as what it is; anything else is an ordinary error alert.
 */
export function TriageError({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  if (!isForbidden(error)) return <ErrorAlert error={error} title={title} />;
  return (
    <Alert color="yellow" variant="light" icon={<IconLock aria-hidden />}>
      <Text fw={600} size="sm">
        You do not have the triage permission
      </Text>
      <Text size="sm">
        Reported messages may hold personal data, so only administrators with the triage permission read them,
        judge them and change how they are handled. Ask whoever manages this account’s administrators to give
        it to you.
      </Text>
    </Alert>
  );
}
