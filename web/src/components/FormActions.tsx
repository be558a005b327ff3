import { Button, Group } from '@mantine/core';

interface FormActionsProps {
  onCancel: () => void;
  /** True while the form is being saved: the submit button shows a spinner. */
  saving: boolean;
  submitLabel?: string;
}

/** The Cancel and submit buttons at the foot of every dialog form. */
export function FormActions({ onCancel, saving, submitLabel = 'Save' }: FormActionsProps) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={saving}>
        {submitLabel}
      </Button>
    </Group>
  );
}
