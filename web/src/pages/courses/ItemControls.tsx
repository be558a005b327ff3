import { ActionIcon, Group as Row, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { move } from './course-draft';

interface ItemControlsProps<T> {
  items: T[];
  index: number;
  /** What an item is called in the buttons' names: "lesson" → "Move lesson 2 up". */
  noun: string;
  onChange: (items: T[]) => void;
}

/** Move up, move down and remove for one item of an edited list (lessons, quiz questions); the last item stays. */
export function ItemControls<T>({ items, index, noun, onChange }: ItemControlsProps<T>) {
  const n = index + 1;
  return (
    <Row gap={4} wrap="nowrap" mb={4}>
      <Tooltip label="Move up">
        <ActionIcon
          variant="subtle"
          aria-label={`Move ${noun} ${n} up`}
          disabled={index === 0}
          onClick={() => onChange(move(items, index, -1))}
        >
          <IconArrowUp size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Move down">
        <ActionIcon
          variant="subtle"
          aria-label={`Move ${noun} ${n} down`}
          disabled={index === items.length - 1}
          onClick={() => onChange(move(items, index, 1))}
        >
          <IconArrowDown size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Remove">
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Remove ${noun} ${n}`}
          disabled={items.length === 1}
          onClick={() => onChange(items.filter((_, j) => j !== index))}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Row>
  );
}
