import { Modal, NumberInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import { useLimits } from '../../api/limits';
import type { ApiKey } from '../../api/types';
import { fieldError } from '../../components/form-errors';
import { SaveForm } from '../../components/SaveForm';
import { useOnOpen } from '../../components/use-on-open';

interface RateLimitModalProps {
  accountId: number;
  apiKey: ApiKey | null;
  opened: boolean;
  onClose: () => void;
}

/** Operators: change how many requests per minute a key may make. */
export function RateLimitModal({ accountId, apiKey, opened, onClose }: RateLimitModalProps) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState<number | string>('');
  const { key_rate_limit: range } = useLimits();
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/accounts/{accountId}/keys/{id}', {
          params: { path: { accountId, id: apiKey?.id ?? 0 } },
          body: { rate_limit: Number(value) },
        }),
      ),
    onSuccess: (key) => {
      queryClient.invalidateQueries({ queryKey: ['keys', accountId] });
      notifications.show({
        color: 'teal',
        message: `"${key.name}" may now make ${key.rate_limit} requests per minute`,
      });
      onClose();
    },
  });

  useOnOpen(opened, () => {
    if (!apiKey) return;
    setValue(apiKey.rate_limit);
    save.reset();
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Change rate budget">
      <SaveForm
        fieldLabels={FORM_FIELDS.keyRateLimit.names}
        save={save}
        fields={['rate_limit']}
        intro={
          <Text size="sm">
            Key <strong>{apiKey?.name}</strong>: requests beyond the budget get{' '}
            <code>429 Too Many Requests</code> until the next minute.
          </Text>
        }
        onCancel={onClose}
      >
        <NumberInput
          label="Requests per minute"
          {...range}
          step={100}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          required
          data-autofocus
          value={value}
          onChange={setValue}
          error={fieldError(save.error, 'rate_limit')}
        />
      </SaveForm>
    </Modal>
  );
}
