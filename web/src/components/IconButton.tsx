import { ActionIcon, type MantineColor, Tooltip } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';

interface IconButtonProps {
  /** The tooltip: the action in a word or two ("Move up"). */
  tooltip: string;
  /** The accessible name: the action and what it acts on ("Move lesson 2 up", "Edit Ann Lee"). */
  label: string;
  icon: TablerIcon;
  onClick: () => void;
  color?: MantineColor;
  disabled?: boolean;
  /** "sm" beside a line of text (a table cell's figure). */
  size?: 'sm';
  iconSize?: number;
}

/** A subtle icon-only button with a tooltip: the actions of a table row or of an edited item. */
export function IconButton({
  tooltip,
  label,
  icon: Icon,
  onClick,
  color,
  disabled,
  size,
  iconSize = 18,
}: IconButtonProps) {
  return (
    <Tooltip label={tooltip}>
      <ActionIcon
        variant="subtle"
        size={size}
        color={color}
        aria-label={label}
        disabled={disabled}
        onClick={onClick}
      >
        <Icon size={iconSize} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
