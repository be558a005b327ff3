import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import { homePath, mfaPath, safeNext, signIn, useRefreshSession, useSession } from '../../auth/session';
import { ErrorAlert, Problem } from '../../components/ErrorAlert';
import { fieldError } from '../../components/form-errors';
import { Loading } from '../../components/Loading';
import { AuthCard } from './AuthCard';

function signInMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'too_many_sign_ins') {
    const seconds = error.retryAfter;
    const wait = !seconds
      ? ' Try again later.'
      : seconds < 90
        ? ` Try again in ${seconds} seconds.`
        : ` Try again in ${Math.ceil(seconds / 60)} minutes.`;
    return `Too many sign-in attempts.${wait}`;
  }
  if (error.code === 'sso_required')
    return 'Your organisation signs in through single sign-on: use “Continue with SSO”.';
  return error.code === 'invalid_credentials' ? 'Invalid email or password.' : null;
}

export function SignInPage() {
  const session = useSession();
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [ssoHint, setSsoHint] = useState<string | null>(null);

  if (session.isPending) return <Loading />;
  const user = session.data?.user;
  if (user && !busy) {
    return (
      <Navigate to={mfaPath(session.data?.mfa_pending ?? null, next) ?? next ?? homePath(user)} replace />
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { user, mfa_pending } = await signIn(email.trim(), password);
      await refresh();
      navigate(mfaPath(mfa_pending, next) ?? next ?? homePath(user), { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  const message = signInMessage(error);
  return (
    <AuthCard title="Sign in">
      <form onSubmit={submit} noValidate>
        <Stack>
          {session.data?.setup_required && (
            <Alert color="blue" variant="light" title="First start">
              No operator exists yet. Open the setup link that the server printed when it started.
            </Alert>
          )}
          {ssoHint ? (
            <Problem heading={ssoHint} />
          ) : message ? (
            <Problem heading={message} />
          ) : (
            <ErrorAlert
              error={error}
              hideFields={['email', 'password']}
              fieldLabels={FORM_FIELDS.signIn.names}
            />
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(error, 'email')}
            data-autofocus
            autoFocus
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(error, 'password')}
          />
          <Button type="submit" loading={busy} fullWidth>
            Sign in
          </Button>
          <Button
            variant="default"
            fullWidth
            onClick={() => {
              // The organisation's identity provider, found from the address's domain (/sso/start).
              if (email.trim() === '') setSsoHint('Enter your email to continue with SSO.');
              else window.location.assign(`/sso/start?email=${encodeURIComponent(email.trim())}`);
            }}
          >
            Continue with SSO
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
