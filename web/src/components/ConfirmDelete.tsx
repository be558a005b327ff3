import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import type { FieldNames } from '../api/field-names';
import { ErrorAlert } from './ErrorAlert';
import type { Dialog } from './use-dialog';

interface ConfirmDeleteProps {
  opened: boolean;
  onClose: () => void;
  /** "Delete employee?" */
  title: string;
  /** What will happen, in plain words. */
  children: ReactNode;
  /** The confirming button's label: "Delete", "Revoke", "Remove". */
  confirmLabel?: string;
  /** The confirming button's colour: red for what cannot be undone, the theme's for a big step ("Launch"). */
  confirmColor?: string;
  /** Runs the deletion; the dialog closes when it succeeds and shows the error when it fails. */
  onConfirm: () => Promise<unknown>;
  /** Names for the fields of the error's messages (see ErrorAlert). */
  fieldLabels?: FieldNames;
  /**
   * Asks the administrator to type this text (case and surrounding spaces aside) before the
   * confirming button works: for a step whose consequences reach beyond the page.
   */
  typeToConfirm?: { label: string; text: string };
}

/** A dialog that asks before something is deleted or revoked for good (or another step that cannot be undone). */
export function ConfirmDelete({
  opened,
  onClose,
  title,
  children,
  confirmLabel = 'Delete',
  confirmColor = 'red',
  onConfirm,
  fieldLabels,
  typeToConfirm,
}: ConfirmDeleteProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [typed, setTyped] = useState('');
  const typedRight = !typeToConfirm || typed.trim().toLowerCase() === typeToConfirm.text.trim().toLowerCase();

  const close = () => {
    setError(null);
    setTyped('');
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack>
        <Text component="div">{children}</Text>
        {typeToConfirm && (
          <TextInput
            label={typeToConfirm.label}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && typedRight && !busy) void confirm();
            }}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
        )}
        <ErrorAlert error={error} fieldLabels={fieldLabels} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color={confirmColor}
            loading={busy}
            onClick={confirm}
            disabled={!typedRight}
            data-autofocus={typeToConfirm ? undefined : true}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type ConfirmDeleteOfProps<T> = Omit<ConfirmDeleteProps, 'opened' | 'onClose' | 'onConfirm'> & {
  /** The dialog (`useDialog`) whose object is deleted. */
  dialog: Dialog<T>;
  onConfirm: (target: T) => Promise<unknown>;
};

/** ConfirmDelete about the object of a `useDialog`: the row whose Delete or Revoke was pressed. */
export function ConfirmDeleteOf<T>({ dialog, onConfirm, ...props }: ConfirmDeleteOfProps<T>) {
  const { target } = dialog;
  return (
    <ConfirmDelete
      {...props}
      opened={dialog.opened}
      onClose={dialog.close}
      onConfirm={() => (target === null ? Promise.resolve() : onConfirm(target))}
    />
  );
}
