import { Alert, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../api/client';
import { type FieldNames, fieldLine, fieldMessage } from '../api/field-names';

interface ErrorAlertProps {
  error: unknown;
  title?: string;
  /** Fields whose messages the form's inputs show: not repeated here. */
  hideFields?: readonly string[];
  /**
   * The form's name of each field (`web/src/api/form-fields.ts`), to name the server's field
   * messages as the user knows them; a field without one is never shown by its API name.
   */
  fieldLabels?: FieldNames;
}

/**
 * A red alert (announced to screen readers). Its heading is plain bold text rather than
 * Mantine's `title`, which would label the alert and so match getByLabel('Email') and the like.
 */
export function Problem({ heading, children }: { heading: string; children?: ReactNode }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />}>
      <Text fw={600} size="sm" c="red.9">
        {heading}
      </Text>
      {children}
    </Alert>
  );
}

/**
 * An API or network error, with the field messages no input shows; every field is named as the
 * form names it (`fieldLabels`), in the lines and in the message itself.
 */
export function ErrorAlert({ error, title, hideFields = [], fieldLabels }: ErrorAlertProps) {
  if (!error) return null;
  if (error instanceof ApiError && error.field && hideFields.includes(error.field)) {
    // An error about one input as a whole ("Email already exists"): the input shows it.
    return <Problem heading="Check the highlighted field." />;
  }
  // Only a validation error's details are field → messages (others carry ids, checks…).
  const details = error instanceof ApiError && error.code === 'validation_failed' ? error.details : undefined;
  const rest = Object.entries(details ?? {}).filter(
    ([field, messages]) => !hideFields.includes(field) && Array.isArray(messages),
  ) as [string, unknown[]][];
  if (error instanceof ApiError && error.code === 'validation_failed' && rest.length === 0) {
    // Every message sits on its input already.
    return <Problem heading="Check the highlighted fields." />;
  }
  const message = fieldMessage(fieldLabels, errorMessage(error));
  return (
    <Problem heading={title ?? message}>
      {title && <Text size="sm">{message}</Text>}
      {rest.length > 0 && (
        <List size="sm" mt={4}>
          {rest.map(([field, messages]) => (
            <List.Item key={field}>{fieldLine(fieldLabels, field, messages)}</List.Item>
          ))}
        </List>
      )}
    </Problem>
  );
}
