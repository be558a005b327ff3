import { Group } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { IconButton } from './IconButton';

interface RowActionsProps {
  /** What the row is called, for the buttons' accessible names ("Edit Ann Lee"). */
  name: string;
  onEdit: () => void;
  onDelete: () => void;
}

/** The edit and delete icon buttons at the end of a table row. */
export function RowActions({ name, onEdit, onDelete }: RowActionsProps) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <IconButton tooltip="Edit" label={`Edit ${name}`} icon={IconPencil} onClick={onEdit} />
      <IconButton tooltip="Delete" label={`Delete ${name}`} icon={IconTrash} color="red" onClick={onDelete} />
    </Group>
  );
}
