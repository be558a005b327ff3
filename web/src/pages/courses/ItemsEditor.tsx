import { Box, Fieldset, Group as Row, Stack } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { AddButton } from '../../components/AddButton';
import { IconButton } from '../../components/IconButton';
import { move } from './course-draft';

interface ItemsEditorProps<T extends { id: string }> {
  items: T[];
  onChange: (items: T[]) => void;
  /** What an item is called: "lesson" → "Lesson 2", "Move lesson 2 up", "Add lesson". */
  noun: string;
  /** The most items the server takes. */
  max: number;
  newItem: () => T;
  /** An item's first input (its title), beside its move and remove buttons. */
  head: (item: T, index: number) => ReactNode;
  /** An item's other inputs. */
  children: (item: T, index: number) => ReactNode;
}

/** An edited list of a course (lessons, quiz questions): a fieldset per item, reordered and removed by its buttons; the last item stays. */
export function ItemsEditor<T extends { id: string }>({
  items,
  onChange,
  noun,
  max,
  newItem,
  head,
  children,
}: ItemsEditorProps<T>) {
  const legend = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <Stack gap="md">
      {items.map((item, i) => (
        <Fieldset key={item.id} legend={`${legend} ${i + 1}`} radius="md">
          <Stack gap="sm">
            <Row align="flex-end" wrap="nowrap" gap="xs">
              <Box style={{ flex: 1 }}>{head(item, i)}</Box>
              <ItemControls items={items} index={i} noun={noun} onChange={onChange} />
            </Row>
            {children(item, i)}
          </Stack>
        </Fieldset>
      ))}
      <Row>
        <AddButton
          variant="light"
          disabled={items.length >= max}
          onClick={() => onChange([...items, newItem()])}
        >
          Add {noun}
        </AddButton>
      </Row>
    </Stack>
  );
}

interface ItemControlsProps<T> {
  items: T[];
  index: number;
  noun: string;
  onChange: (items: T[]) => void;
}

/** Move up, move down and remove for one item. */
function ItemControls<T>({ items, index, noun, onChange }: ItemControlsProps<T>) {
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
