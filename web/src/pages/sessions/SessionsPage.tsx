import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call, errorMessage } from '../../api/client';
import type { DeviceSession } from '../../api/types';
import { useCurrentUser, useRefreshSession } from '../../auth/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { AppLayout } from '../../layout/AppLayout';
import { SessionsTable } from './SessionsTable';

/** /sessions — where you are signed in; end any session (a lost laptop, a shared computer). */
export function SessionsPage() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const sessions = useQuery({
    queryKey: ['own-sessions'],
    queryFn: () => call(api.GET('/session/sessions')),
  });
  const end = useMutation({
    mutationFn: (session: DeviceSession) =>
      call(api.DELETE('/session/sessions/{sessionId}', { params: { path: { sessionId: session.id } } })),
    onSuccess: async (_done, session) => {
      if (session.current) {
        await refresh().catch(() => undefined);
        navigate('/sign-in', { replace: true });
        return;
      }
      notifications.show({ color: 'teal', message: `The session on ${session.device} has ended` });
      await queryClient.invalidateQueries({ queryKey: ['own-sessions'] });
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'Could not end the session', message: errorMessage(error) }),
  });

  return (
    <>
      <PageHeader
        title="Your sessions"
        description="The browsers where you are signed in. End any you do not recognise, then change your password."
      />
      <Stack gap="md">
        <ErrorAlert error={sessions.error} title="Could not load your sessions" />
        <SessionsTable
          label="Your sessions"
          sessions={sessions.data?.results ?? []}
          fetching={sessions.isFetching}
          onEnd={(s) => end.mutate(s)}
          ending={end.isPending ? (end.variables?.id ?? null) : null}
          own
        />
        <Text size="sm" c="dimmed">
          A session also ends after 12 hours without use, 7 days after signing in, or when an owner disables
          you.
        </Text>
      </Stack>
    </>
  );
}

/** The page in the layout of the signed-in user's own account (none for operators). */
export function OwnSessionsPage() {
  const user = useCurrentUser();
  return (
    <AppLayout accountId={user.account_id}>
      <SessionsPage />
    </AppLayout>
  );
}
