import { Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Account } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormActions } from '../../components/FormActions';
import { fieldError } from '../../components/form-errors';
import { submitWith, useOnOpen } from '../../components/use-on-open';

interface AccountFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The account to rename; none to create one. */
  account: Account | null;
  onSaved?: (account: Account) => void;
}

/** "New account" and "Rename account": one field, Name. */
export function AccountFormModal({ opened, onClose, account, onSaved }: AccountFormModalProps) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const save = useMutation({
    mutationFn: () =>
      account
        ? call(
            api.PATCH('/accounts/{accountId}', {
              params: { path: { accountId: account.id } },
              body: { name: name.trim() },
            }),
          )
        : call(api.POST('/accounts', { body: { name: name.trim() } })),
    onSuccess: (saved) => {
      queryClient.invalidateQueries({ queryKey: ['accounts'] });
      queryClient.setQueryData(['account', saved.id], saved);
      notifications.show({
        color: 'teal',
        message: account ? 'Account renamed' : `Account "${saved.name}" created`,
      });
      onSaved?.(saved);
      onClose();
    },
  });

  useOnOpen(opened, () => {
    setName(account?.name ?? '');
    save.reset();
  }, [account]);
  const submit = submitWith(save);

  return (
    <Modal opened={opened} onClose={onClose} title={account ? 'Rename account' : 'New account'}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={save.error} hideFields={['name']} />
          <TextInput
            label="Name"
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldError(save.error, 'name')}
          />
          <FormActions onCancel={onClose} saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
