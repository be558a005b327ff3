import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One labelled value of a description list (`<dl>`): the label dimmed above, the value below. */
export function Fact({ label, children, large }: { label: string; children: ReactNode; large?: boolean }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0} fw={large ? 600 : 500} size={large ? 'lg' : undefined}>
        {children}
      </Text>
    </div>
  );
}
