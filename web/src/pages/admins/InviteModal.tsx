import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { AccountRole } from '../../api/types';
import { CopyButton } from '../../components/CopyButton';
import { fieldError } from '../../components/form-errors';
import { formatDateTime } from '../../components/format';
import { SaveForm } from '../../components/SaveForm';
import { useOnOpen } from '../../components/use-on-open';
import type { PickedGroup } from '../campaigns/GroupPicker';
import { RolePicker } from './RolePicker';

interface InviteModalProps {
  accountId: number;
  accountName: string;
  opened: boolean;
  onClose: () => void;
}

/** Owners: invite an account administrator by email, with a role and group scope; the link is shown this once. */
export function InviteModal({ accountId, accountName, opened, onClose }: InviteModalProps) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AccountRole>('administrator');
  const [groups, setGroups] = useState<PickedGroup[]>([]);
  const invite = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/invitations', {
          params: { path: { accountId } },
          body: { email: email.trim(), role, group_ids: role === 'owner' ? [] : groups.map((g) => g.id) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations', accountId] }),
  });

  useOnOpen(opened, () => {
    setEmail('');
    setRole('administrator');
    setGroups([]);
    invite.reset();
  });
  const created = invite.data;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={created ? 'Invitation created' : 'Invite an administrator'}
      closeOnClickOutside={!created}
      size="lg"
    >
      {created ? (
        <Stack>
          <Alert color="orange" icon={<IconAlertTriangle />} title="Copy the link now">
            Send this link to {created.email}. It is shown only this once and cannot be shown again.
          </Alert>
          <TextInput
            label="Invitation link"
            readOnly
            value={created.url}
            onFocus={(e) => e.currentTarget.select()}
          />
          <Text size="sm" c="dimmed">
            Valid until {formatDateTime(created.expires_at)}, for one use.
          </Text>
          <Group justify="space-between">
            <CopyButton value={created.url} />
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <SaveForm
          fieldLabels={FORM_FIELDS.invitation.names}
          save={invite}
          fields={['email', 'role', 'group_ids']}
          intro={
            <Text size="sm">
              The invited person chooses a password and then administers <strong>{accountName}</strong> only.
            </Text>
          }
          onCancel={onClose}
          submitLabel="Create invitation"
        >
          <TextInput
            label="Email"
            type="email"
            required
            data-autofocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(invite.error, 'email')}
          />
          <RolePicker
            accountId={accountId}
            role={role}
            groups={groups}
            onRole={setRole}
            onGroups={setGroups}
            roleError={fieldError(invite.error, 'role')}
            groupsError={fieldError(invite.error, 'group_ids')}
          />
        </SaveForm>
      )}
    </Modal>
  );
}
