import { Modal, PasswordInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api/client';
import { FORM_FIELDS } from '../api/form-fields';
import { useLimits } from '../api/limits';
import { fieldError } from '../components/form-errors';
import { SaveForm } from '../components/SaveForm';
import { useOnOpen } from '../components/use-on-open';

interface ChangePasswordModalProps {
  opened: boolean;
  onClose: () => void;
}

/** "Change password": the current one, then the new one; other sessions are signed out. */
export function ChangePasswordModal({ opened, onClose }: ChangePasswordModalProps) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const { password } = useLimits();
  const save = useMutation({
    mutationFn: () =>
      call(api.POST('/session/password', { body: { current_password: current, new_password: next } })),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: 'Password changed. Other sessions were signed out.' });
      onClose();
    },
  });

  useOnOpen(opened, () => {
    setCurrent('');
    setNext('');
    save.reset();
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Change password">
      <SaveForm
        fieldLabels={FORM_FIELDS.changePassword.names}
        save={save}
        fields={['current_password', 'new_password']}
        onCancel={onClose}
        submitLabel="Change password"
      >
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          data-autofocus
          value={current}
          onChange={(e) => setCurrent(e.currentTarget.value)}
          error={fieldError(save.error, 'current_password')}
        />
        <PasswordInput
          label="New password"
          description={`At least ${password.min} characters`}
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.currentTarget.value)}
          error={fieldError(save.error, 'new_password')}
        />
        <Text size="sm" c="dimmed">
          You stay signed in here; every other browser is signed out.
        </Text>
      </SaveForm>
    </Modal>
  );
}
