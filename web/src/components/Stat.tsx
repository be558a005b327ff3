import { Card, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure of a summary, as a term and its value in a `dl` (the caller's grid), with a hint below. */
export function Stat({ label, value, hint }: { label: string; value: string; hint?: ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed" fw={500} component="dt">
        {label}
      </Text>
      <dd style={{ margin: 0 }}>
        <Text component="span" display="block" fz={{ base: 22, sm: 28 }} fw={700} lh={1.25}>
          {value}
        </Text>
        {hint && (
          <Text component="span" display="block" size="xs" c="dimmed" mt={2}>
            {hint}
          </Text>
        )}
      </dd>
    </Card>
  );
}
