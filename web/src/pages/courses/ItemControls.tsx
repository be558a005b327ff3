import { Group as Row } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { IconButton } from '../../components/IconButton';
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
      <IconButton
        tooltip="Move up"
        label={`Move ${noun} ${n} up`}
        icon={IconArrowUp}
        disabled={index === 0}
        onClick={() => onChange(move(items, index, -1))}
      />
      <IconButton
        tooltip="Move down"
        label={`Move ${noun} ${n} down`}
        icon={IconArrowDown}
        disabled={index === items.length - 1}
        onClick={() => onChange(move(items, index, 1))}
      />
      <IconButton
        tooltip="Remove"
        label={`Remove ${noun} ${n}`}
        icon={IconTrash}
        color="red"
        disabled={items.length === 1}
        onClick={() => onChange(items.filter((_, j) => j !== index))}
      />
    </Row>
  );
}
