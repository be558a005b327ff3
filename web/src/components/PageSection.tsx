import { Group, type MantineSpacing, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

interface PageSectionProps {
  /** The section's <h2>, which also names it for screen readers. */
  title: string;
  /** h4 for the parts of a short page (the administrators and their invitations). */
  size?: 'h3' | 'h4';
  gap?: MantineSpacing;
  /** A message about the section as a whole ("lessons: must not be empty"), under its heading. */
  error?: string | undefined;
  /** Buttons at the heading's right ("Download CSV"). */
  actions?: ReactNode;
  children: ReactNode;
}

/** A titled part of a page: a <section> labelled by its heading. */
export function PageSection({ title, size = 'h3', gap = 'sm', error, actions, children }: PageSectionProps) {
  const id = useId();
  const heading = (
    <Title order={2} size={size} id={id}>
      {title}
    </Title>
  );
  return (
    <Stack component="section" aria-labelledby={id} gap={gap}>
      {actions ? (
        <Group justify="space-between" align="flex-end">
          {heading}
          {actions}
        </Group>
      ) : (
        heading
      )}
      {error && (
        <Text c="red.9" size="sm" role="alert">
          {error}
        </Text>
      )}
      {children}
    </Stack>
  );
}
