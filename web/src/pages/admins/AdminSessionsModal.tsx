import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, errorMessage } from '../../api/client';
import type { Admin, DeviceSession } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SessionsTable } from '../sessions/SessionsTable';

interface AdminSessionsModalProps {
  accountId: number;
  admin: Admin | null;
  onClose: () => void;
}

/** An administrator's signed-in sessions, as an owner sees them: end one, or all. */
export function AdminSessionsModal({ accountId, admin, onClose }: AdminSessionsModalProps) {
  const queryClient = useQueryClient();
  const key = ['admin-sessions', accountId, admin?.id];
  const sessions = useQuery({
    queryKey: key,
    enabled: admin !== null,
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/admins/{id}/sessions', {
          params: { path: { accountId, id: admin?.id ?? 0 } },
        }),
      ),
  });
  const done = (message: string) => {
    notifications.show({ color: 'teal', message });
    void queryClient.invalidateQueries({ queryKey: key });
  };
  const fail = (error: unknown) =>
    notifications.show({ color: 'red', title: 'Could not end the session', message: errorMessage(error) });
  const endOne = useMutation({
    mutationFn: (session: DeviceSession) =>
      call(
        api.DELETE('/accounts/{accountId}/admins/{id}/sessions/{sessionId}', {
          params: { path: { accountId, id: admin?.id ?? 0, sessionId: session.id } },
        }),
      ),
    onSuccess: (_r, session) => done(`The session on ${session.device} has ended`),
    onError: fail,
  });
  const endAll = useMutation({
    mutationFn: () =>
      call(
        api.DELETE('/accounts/{accountId}/admins/{id}/sessions', {
          params: { path: { accountId, id: admin?.id ?? 0 } },
        }),
      ),
    onSuccess: (r) =>
      done(`${r.ended} session${r.ended === 1 ? '' : 's'} ended: ${admin?.email} signs in again`),
    onError: fail,
  });
  const list = sessions.data?.results ?? [];

  return (
    <Modal opened={admin !== null} onClose={onClose} title={`Sessions of ${admin?.email ?? ''}`} size="xl">
      <Stack gap="md">
        <Text size="sm">Ending a session signs that browser out at once.</Text>
        <ErrorAlert error={sessions.error} title="Could not load the sessions" />
        <SessionsTable
          label={`Sessions of ${admin?.email ?? ''}`}
          sessions={list}
          fetching={sessions.isFetching}
          onEnd={(s) => endOne.mutate(s)}
          ending={endOne.isPending ? (endOne.variables?.id ?? null) : null}
          own={false}
        />
        <Group justify="flex-end">
          <Button
            color="red"
            disabled={list.length === 0}
            loading={endAll.isPending}
            onClick={() => endAll.mutate()}
          >
            End all sessions
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
