import { Button, Group, type MantineSpacing, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import type { FieldNames } from '../api/field-names';
import { ErrorAlert } from './ErrorAlert';

interface SaveFormProps {
  /** The mutation that saves: submitting runs it, its error is shown, the button spins while it runs. */
  save: { mutate: () => void; error: unknown; isPending: boolean };
  /** Runs instead of `save.mutate` on submit (to check something first). */
  onSubmit?: () => void;
  onCancel: () => void;
  submitLabel?: string;
  /** The fields whose messages the inputs show: the alert repeats only the others. */
  fields: readonly string[];
  /** The form's label of each field, to name the messages the alert shows (see ErrorAlert). */
  fieldLabels?: FieldNames;
  /** The alert's heading ("Could not save the course"), above the error's own message. */
  errorTitle?: string;
  /** Shown first, above the error: what the form is about. */
  intro?: ReactNode;
  /** False leaves out Cancel and submit (nothing can be changed). */
  canSave?: boolean;
  /** A page's form is narrower and more spaced than a dialog's. */
  maw?: number;
  gap?: MantineSpacing;
  children: ReactNode;
}

/** A form that saves through a mutation: the error above the inputs, Cancel and submit below them. */
export function SaveForm({
  save,
  onSubmit = save.mutate,
  onCancel,
  submitLabel = 'Save',
  fields,
  fieldLabels,
  errorTitle,
  intro,
  canSave = true,
  maw,
  gap,
  children,
}: SaveFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault(); // the mutation sends it, the browser does not
    onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={maw} gap={gap}>
        {intro}
        <ErrorAlert error={save.error} hideFields={fields} fieldLabels={fieldLabels} title={errorTitle} />
        {children}
        {canSave && (
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {submitLabel}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
