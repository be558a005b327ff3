import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../api/client';
import { useLimits } from '../api/limits';
import { ErrorAlert } from '../components/ErrorAlert';
import { FormActions } from '../components/FormActions';
import { fieldError } from '../components/form-errors';
import { submitWith, useOnOpen } from '../components/use-on-open';

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
  const submit = submitWith(save);

  return (
    <Modal opened={opened} onClose={onClose} title="Change password">
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={save.error} hideFields={['current_password', 'new_password']} />
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
          <FormActions onCancel={onClose} saving={save.isPending} submitLabel="Change password" />
        </Stack>
      </form>
    </Modal>
  );
}
