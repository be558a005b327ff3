import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { CopyButton } from './CopyButton';

/** A secret in a read-only monospace field, selected on focus, to copy. */
export function SecretField({ label, secret }: { label: string; secret: string }) {
  return (
    <TextInput
      label={label}
      readOnly
      value={secret}
      onFocus={(e) => e.currentTarget.select()}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
}

/**
 * The dialog that shows a new secret (an API key, a SCIM token, a webhook signing secret): a
 * warning to copy it now, the secret with **Copy**, **Done**, and what to do with it below.
 */
export function SecretShownOnce(props: {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** The alert's title and text: why to copy it now. */
  warning: { title: string; text: ReactNode };
  label: string;
  secret: string;
  /** Below: what to do with the secret. */
  children: ReactNode;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      closeOnClickOutside={false}
      size="lg"
    >
      <Stack>
        <Alert color="orange" icon={<IconAlertTriangle />} title={props.warning.title}>
          {props.warning.text}
        </Alert>
        <SecretField label={props.label} secret={props.secret} />
        <Group justify="space-between">
          <CopyButton value={props.secret} />
          <Button onClick={props.onClose}>Done</Button>
        </Group>
        {props.children}
      </Stack>
    </Modal>
  );
}
