import { Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface EmptyStateProps {
  title: string;
  /** What to do next, in a sentence. */
  children?: ReactNode;
  /** Buttons or links that start that next step. */
  actions?: ReactNode;
  icon?: ReactNode;
}

/** Shown instead of an empty list: says what is missing and what to do about it. */
export function EmptyState({ title, children, actions, icon }: EmptyStateProps) {
  return (
    <Stack align="center" gap="xs" py="xl" px="md" ta="center">
      <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
        {icon ?? <IconInbox size={26} />}
      </ThemeIcon>
      <Text fw={600} size="lg">
        {title}
      </Text>
      {children && (
        <Text c="dimmed" maw={460}>
          {children}
        </Text>
      )}
      {actions}
    </Stack>
  );
}
