import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { Group } from '../../api/types';
import { fieldError } from '../../components/form-errors';
import { invalidateAccount } from '../../components/invalidate';
import { SaveForm } from '../../components/SaveForm';
import { DescriptionInput, NameInput } from '../../components/TextInputs';
import { useOnOpen } from '../../components/use-on-open';

interface GroupFormModalProps {
  accountId: number;
  opened: boolean;
  onClose: () => void;
  /** The group to rename or describe; none to create one. */
  group: Group | null;
  onSaved?: (group: Group) => void;
}

/** "New group" / "Edit group": name and description. */
export function GroupFormModal({ accountId, opened, onClose, group, onSaved }: GroupFormModalProps) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const save = useMutation({
    mutationFn: () => {
      const input = { name: name.trim(), description: description.trim() };
      return group
        ? call(
            api.PATCH('/accounts/{accountId}/groups/{groupId}', {
              params: { path: { accountId, groupId: group.id } },
              body: input,
            }),
          )
        : call(api.POST('/accounts/{accountId}/groups', { params: { path: { accountId } }, body: input }));
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['group', accountId, saved.id], saved);
      invalidateAccount(queryClient, accountId, 'groups', 'overview', 'campaigns', 'campaign');
      notifications.show({
        color: 'teal',
        message: group ? `Saved group "${saved.name}"` : `Created group "${saved.name}"`,
      });
      onSaved?.(saved);
      onClose();
    },
  });

  useOnOpen(opened, () => {
    save.reset();
    setName(group?.name ?? '');
    setDescription(group?.description ?? '');
  }, [group]);

  return (
    <Modal opened={opened} onClose={onClose} title={group ? 'Edit group' : 'New group'}>
      <SaveForm
        save={save}
        fields={['name', 'description']}
        fieldLabels={FORM_FIELDS.group.names}
        onCancel={onClose}
      >
        <NameInput value={name} onChange={setName} error={fieldError(save.error, 'name')} />
        <DescriptionInput
          value={description}
          onChange={setDescription}
          error={fieldError(save.error, 'description')}
        />
      </SaveForm>
    </Modal>
  );
}
