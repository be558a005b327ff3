import { Button } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

interface EditDeleteButtonsProps {
  /** What the page shows, in the buttons' labels: "group" → "Edit group", "Delete group". */
  noun: string;
  onEdit: () => void;
  onDelete: () => void;
}

/** The Edit and Delete buttons in the header of an object's own page (a table row has RowActions). */
export function EditDeleteButtons({ noun, onEdit, onDelete }: EditDeleteButtonsProps) {
  return (
    <>
      <Button variant="default" leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
        Edit {noun}
      </Button>
      <Button
        variant="default"
        color="red"
        leftSection={<IconTrash size={16} aria-hidden />}
        onClick={onDelete}
      >
        Delete {noun}
      </Button>
    </>
  );
}
