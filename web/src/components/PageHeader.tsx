import { Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';

interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  /** Buttons at the right (below the title on phones). */
  actions?: ReactNode;
  /** Above the title: a back link. */
  above?: ReactNode;
}

/** The page's one <h1>, a sentence about it, its main actions; also sets the document title. */
export function PageHeader({ title, description, actions, above }: PageHeaderProps) {
  useEffect(() => {
    document.title = `${title} · Vigil administration`;
  }, [title]);

  return (
    <Stack gap={4} mb="lg">
      {above}
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {description && <Text c="dimmed">{description}</Text>}
        </Stack>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
    </Stack>
  );
}
