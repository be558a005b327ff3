import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { Account } from '../../api/types';
import { fieldError } from '../../components/form-errors';
import { SaveForm } from '../../components/SaveForm';
import { NameInput } from '../../components/TextInputs';
import { useOnOpen } from '../../components/use-on-open';

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

  return (
    <Modal opened={opened} onClose={onClose} title={account ? 'Rename account' : 'New account'}>
      <SaveForm save={save} fields={['name']} fieldLabels={FORM_FIELDS.account.names} onCancel={onClose}>
        <NameInput value={name} onChange={setName} error={fieldError(save.error, 'name')} />
      </SaveForm>
    </Modal>
  );
}
