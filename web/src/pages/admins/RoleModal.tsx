import { Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { AccountRole, Admin } from '../../api/types';
import { fieldError } from '../../components/form-errors';
import { SaveForm } from '../../components/SaveForm';
import { useOnOpen } from '../../components/use-on-open';
import type { PickedGroup } from '../campaigns/GroupPicker';
import { RolePicker, roleLabel } from './RolePicker';

interface RoleModalProps {
  accountId: number;
  admin: Admin | null;
  onClose: () => void;
}

/** Owners: an administrator's role and the groups it is limited to. */
export function RoleModal({ accountId, admin, onClose }: RoleModalProps) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<AccountRole>('administrator');
  const [groups, setGroups] = useState<PickedGroup[]>([]);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/accounts/{accountId}/admins/{id}/role', {
          params: { path: { accountId, id: admin?.id ?? 0 } },
          body: { role, group_ids: role === 'owner' ? [] : groups.map((g) => g.id) },
        }),
      ),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['admins', accountId] });
      notifications.show({
        color: 'teal',
        message: `${saved.email} is now ${roleLabel(saved.account_role)}`,
      });
      onClose();
    },
  });
  useOnOpen(admin !== null, () => {
    setRole(admin?.account_role ?? 'administrator');
    setGroups(admin?.groups ?? []);
    save.reset();
  });
  return (
    <Modal opened={admin !== null} onClose={onClose} title="Change role" size="lg">
      <SaveForm
        fieldLabels={FORM_FIELDS.adminRole.names}
        save={save}
        fields={['role', 'group_ids']}
        intro={
          <Text size="sm">
            What <strong>{admin?.email}</strong> may do in this account, from their next click.
          </Text>
        }
        onCancel={onClose}
        submitLabel="Save role"
      >
        <RolePicker
          accountId={accountId}
          role={role}
          groups={groups}
          onRole={setRole}
          onGroups={setGroups}
          roleError={fieldError(save.error, 'role')}
          groupsError={fieldError(save.error, 'group_ids')}
        />
      </SaveForm>
    </Modal>
  );
}
