import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { startAuthentication } from '@simplewebauthn/browser';
import { IconKey } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError, authApi, call } from '../../api/client';
import {
  homePath,
  type SecondStepInput,
  safeNext,
  signOut,
  useRefreshSession,
  useSession,
  verifySecondStep,
} from '../../auth/session';
import { ErrorAlert, Problem } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { AuthCard } from './AuthCard';

function stepMessage(error: unknown): string | null {
  if (error instanceof ApiError) {
    if (error.code === 'invalid_mfa_code') return 'That code or passkey did not work. Try again.';
    if (error.code === 'too_many_sign_ins') {
      const minutes = Math.max(1, Math.ceil((error.retryAfter ?? 60) / 60));
      return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    }
  }
  if (error instanceof Error && error.name === 'NotAllowedError')
    return 'The passkey was not used. Try again.';
  return null;
}

/** /sign-in/verify — the second step of signing in: a code from the authenticator app, a passkey, or a recovery code. */
export function SecondStepPage() {
  const session = useSession();
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [mode, setMode] = useState<'totp' | 'recovery' | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (session.isPending) return <Loading />;
  const data = session.data;
  if (!data?.user) return <Navigate to="/sign-in" replace />;
  if (data.mfa_pending !== 'verify' && !busy) return <Navigate to={next ?? homePath(data.user)} replace />;
  const methods = data.mfa_methods;
  const shown = mode ?? (methods.includes('totp') ? 'totp' : methods.includes('passkey') ? null : 'recovery');

  const finish = async (body: SecondStepInput) => {
    setBusy(true);
    setError(null);
    try {
      const { user } = await verifySecondStep(body);
      await refresh();
      navigate(next ?? homePath(user), { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void finish(shown === 'recovery' ? { recovery_code: code.trim() } : { totp_code: code.trim() });
  };
  const usePasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      const options = await call(authApi.POST('/session/mfa/passkey-options', {}));
      const answer = await startAuthentication({ optionsJSON: options as never });
      await finish({ passkey: answer as never });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const leave = async () => {
    await signOut().catch(() => undefined);
    await refresh().catch(() => undefined);
    navigate('/sign-in', { replace: true });
  };

  const message = stepMessage(error);
  return (
    <AuthCard title="Two-step sign-in">
      <Stack>
        <Text size="sm">
          Signed in as <b>{data.user.email}</b>. Confirm it is you with your second factor.
        </Text>
        {message ? (
          <Problem heading={message} />
        ) : (
          <ErrorAlert error={error} hideFields={['totp_code', 'recovery_code']} />
        )}
        {methods.includes('passkey') && (
          <Button
            leftSection={<IconKey size={18} aria-hidden />}
            onClick={usePasskey}
            loading={busy && shown === null}
            variant={shown === null ? 'filled' : 'default'}
            fullWidth
          >
            Use a passkey or security key
          </Button>
        )}
        {shown !== null && (
          <form onSubmit={submit} noValidate>
            <Stack>
              <TextInput
                label={shown === 'totp' ? 'Code from your authenticator app' : 'Recovery code'}
                description={
                  shown === 'totp'
                    ? 'Six digits'
                    : 'One of the codes you saved when you set up two-step sign-in; each works once'
                }
                autoComplete="one-time-code"
                inputMode={shown === 'totp' ? 'numeric' : 'text'}
                required
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                data-autofocus
                autoFocus
              />
              <Button type="submit" loading={busy} fullWidth>
                Verify
              </Button>
            </Stack>
          </form>
        )}
        <Stack gap={4}>
          {shown !== 'totp' && methods.includes('totp') && (
            <Anchor component="button" type="button" size="sm" onClick={() => setMode('totp')}>
              Use a code from your authenticator app
            </Anchor>
          )}
          {shown !== 'recovery' && (
            <Anchor component="button" type="button" size="sm" onClick={() => setMode('recovery')}>
              Use a recovery code
            </Anchor>
          )}
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={leave}>
            Cancel and sign out
          </Anchor>
        </Stack>
        <Text size="xs" c="dimmed">
          Lost your phone or key, and your recovery codes? An owner of your account can reset your second
          factors.
        </Text>
      </Stack>
    </AuthCard>
  );
}
