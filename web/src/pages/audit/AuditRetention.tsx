import { Button, Group, NumberInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, errorMessage } from '../../api/client';
import { can, useCurrentUser } from '../../auth/session';
import { useAccount } from '../../layout/account-context';

/** How long the audit log is kept; owners (`audit:settings`) change it, within 180 to 3650 days. */
export function AuditRetention() {
  const account = useAccount();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const key = ['audit-settings', account.id];
  const settings = useQuery({
    queryKey: key,
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/audit-log/settings', { params: { path: { accountId: account.id } } }),
      ),
  });
  const [days, setDays] = useState<number | string>('');
  const save = useMutation({
    mutationFn: (value: number) =>
      call(
        api.PUT('/accounts/{accountId}/audit-log/settings', {
          params: { path: { accountId: account.id } },
          body: { audit_retention_days: value },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      setDays('');
      notifications.show({
        color: 'teal',
        message: `The audit log is now kept ${saved.audit_retention_days} days`,
      });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: 'Could not change the retention',
        message: errorMessage(error),
      }),
  });
  const data = settings.data;
  if (!data) return null;
  const editable = can(user, 'audit:settings');
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Text size="sm" c="dimmed" style={{ flex: '1 1 16rem' }}>
        Kept {data.audit_retention_days} days (default {data.default_days}); older entries are deleted and the
        chain keeps its anchor, so <code>vigil audit verify</code> still checks what remains.
      </Text>
      {editable && (
        <>
          <NumberInput
            label="Keep for (days)"
            min={data.minimum_days}
            max={data.maximum_days}
            value={days === '' ? data.audit_retention_days : days}
            onChange={setDays}
            w={150}
          />
          <Button
            variant="light"
            loading={save.isPending}
            disabled={days === '' || Number(days) === data.audit_retention_days}
            onClick={() => save.mutate(Number(days))}
          >
            Save retention
          </Button>
        </>
      )}
    </Group>
  );
}
