import { Text } from '@mantine/core';

/**
 * A value of any length in a table cell (an imported cell, a message): wrapped anywhere, so a
 * long address cannot widen its column past the page, and cut after `lines` lines with "…".
 * The whole value stays in the page (screen readers read it all) and shows on hover.
 */
export function LongText({ children, lines = 3 }: { children: string; lines?: number }) {
  return (
    <Text size="sm" lineClamp={lines} title={children} style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  );
}
