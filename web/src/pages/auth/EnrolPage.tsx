import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import {
  finishEnrolment,
  homePath,
  safeNext,
  signOut,
  useRefreshSession,
  useSession,
} from '../../auth/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { MfaFactors } from '../security/MfaFactors';
import { AuthCard } from './AuthCard';

/** /sign-in/enrol — MFA is required and the user has no factor yet: they add one before going on. */
export function EnrolPage() {
  const session = useSession();
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  if (session.isPending) return <Loading />;
  const data = session.data;
  if (!data?.user) return <Navigate to="/sign-in" replace />;
  if (data.mfa_pending !== 'enrol' && !done) return <Navigate to={next ?? homePath(data.user)} replace />;

  const proceed = async () => {
    setDone(true);
    try {
      const { user } = await finishEnrolment();
      await refresh();
      navigate(next ?? homePath(user), { replace: true });
    } catch (err) {
      setError(err);
      setDone(false);
    }
  };
  const leave = async () => {
    await signOut().catch(() => undefined);
    await refresh().catch(() => undefined);
    navigate('/sign-in', { replace: true });
  };

  return (
    <AuthCard title="Set up two-step sign-in">
      <Stack>
        <Alert variant="light" color="blue">
          Your organisation requires a second factor to sign in. Add an authenticator app or a passkey to
          continue.
        </Alert>
        <Text size="sm">
          Signed in as <b>{data.user.email}</b>.
        </Text>
        <ErrorAlert error={error} />
        <MfaFactors enrolling onFirstFactor={proceed} />
        <Anchor component="button" type="button" size="sm" c="dimmed" onClick={leave}>
          Cancel and sign out
        </Anchor>
      </Stack>
    </AuthCard>
  );
}
