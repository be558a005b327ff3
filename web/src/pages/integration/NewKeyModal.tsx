import { Code, Modal, Select, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { Permission } from '../../api/types';
import { fieldError } from '../../components/form-errors';
import { invalidateAccount } from '../../components/invalidate';
import { SaveForm } from '../../components/SaveForm';
import { SecretShownOnce } from '../../components/SecretShownOnce';
import { NameInput } from '../../components/TextInputs';
import { useOnOpen } from '../../components/use-on-open';
import { PermissionSwitches } from './PermissionSwitches';

const EXPIRY_OPTIONS = [
  { value: 'never', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
];

function expiresAt(choice: string): string | null {
  return choice === 'never' ? null : new Date(Date.now() + Number(choice) * 86_400_000).toISOString();
}

/** "New API Key": name, permissions, expiry → "Generate Key" → the secret, shown this once. */
export function NewKeyModal({
  accountId,
  opened,
  onClose,
}: {
  accountId: number;
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const [expiry, setExpiry] = useState('never');
  const [missing, setMissing] = useState(false);
  const generate = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/keys', {
          params: { path: { accountId } },
          body: { name: name.trim(), permissions, expires_at: expiresAt(expiry) },
        }),
      ),
    onSuccess: () => invalidateAccount(queryClient, accountId, 'keys', 'overview'),
  });
  const created = generate.data;

  useOnOpen(opened, () => {
    setName('');
    setPermissions([]);
    setExpiry('never');
    setMissing(false);
    generate.reset();
  });

  const submit = () => {
    if (permissions.length === 0) {
      setMissing(true);
      return;
    }
    generate.mutate();
  };
  const permissionError =
    missing && permissions.length === 0
      ? 'Choose at least one permission'
      : fieldError(generate.error, 'permissions');

  if (created) {
    return (
      <SecretShownOnce
        opened={opened}
        onClose={onClose}
        title="Your new API key"
        warning={{
          title: 'Copy the key now',
          text: 'This is the only time the key is shown. It cannot be shown again: store it somewhere safe.',
        }}
        label="API key"
        secret={created.key}
      >
        <Text size="sm" c="dimmed">
          Send it in the <Code>apiKey</Code> header of Customer API requests. Its prefix{' '}
          <Code>{created.prefix}</Code> identifies it in the list.
        </Text>
      </SecretShownOnce>
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title="New API key" size="lg">
      <SaveForm
        fieldLabels={FORM_FIELDS.newKey.names}
        save={generate}
        onSubmit={submit}
        fields={['name', 'permissions', 'expires_at']}
        onCancel={onClose}
        submitLabel="Generate Key"
      >
        <NameInput
          description="What uses this key, e.g. “HR sync”"
          value={name}
          onChange={setName}
          error={fieldError(generate.error, 'name')}
        />
        <PermissionSwitches value={permissions} onChange={setPermissions} error={permissionError} />
        <Select
          label="Expires"
          data={EXPIRY_OPTIONS}
          value={expiry}
          onChange={(v) => setExpiry(v ?? 'never')}
          allowDeselect={false}
          error={fieldError(generate.error, 'expires_at')}
          maw={240}
        />
      </SaveForm>
    </Modal>
  );
}
