import { Button, type ButtonProps } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

/** A button that creates or adds something, a plus before its label: "New campaign", "Add lesson". */
export function AddButton({ onClick, ...props }: ButtonProps & { onClick: () => void }) {
  return <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onClick} {...props} />;
}
