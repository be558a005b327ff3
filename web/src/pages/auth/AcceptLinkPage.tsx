import { Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { authApi, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import { useLimitsQuery } from '../../api/limits';
import { acceptInvitation, homePath, mfaPath, useRefreshSession } from '../../auth/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldError } from '../../components/form-errors';
import { Loading } from '../../components/Loading';
import { AuthCard } from './AuthCard';

const FIELDS = ['email', 'name', 'password'] as const;

/** /setup/:token (the first operator chooses email and password) and /invite/:token. */
export function AcceptLinkPage({ kind }: { kind: 'setup' | 'invite' }) {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const refresh = useRefreshSession();
  const link = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => call(authApi.GET('/invitations/{token}', { params: { path: { token } } })),
    retry: false,
  });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const passwordMin = useLimitsQuery().data?.password.min;

  const title = kind === 'setup' ? 'Set up Vigil' : 'Accept invitation';
  if (link.isPending) return <Loading />;
  if (link.error || !link.data) {
    return (
      <AuthCard title={title}>
        <Stack>
          <ErrorAlert error={link.error} />
          <Text size="sm">
            Ask for a new link, or <Link to="/sign-in">sign in</Link> if you already have an account.
          </Text>
        </Stack>
      </AuthCard>
    );
  }
  const invitation = link.data;
  const isSetup = invitation.kind === 'setup';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { password, ...(name.trim() ? { name: name.trim() } : {}) };
      const answer = await acceptInvitation(token, isSetup ? { ...body, email: email.trim() } : body);
      await refresh();
      // Where MFA is required, a new administrator enrols a factor first.
      navigate(mfaPath(answer.mfa_pending, null) ?? homePath(answer.user), { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <AuthCard title={title}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {isSetup
              ? 'Create the first operator account. Operators manage every customer account.'
              : `You are invited to administer ${invitation.account?.name ?? 'a customer account'} in Vigil. Choose a password to continue.`}
          </Text>
          <ErrorAlert error={error} hideFields={FIELDS} fieldLabels={FORM_FIELDS.acceptLink.names} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required={isSetup}
            readOnly={!isSetup}
            variant={isSetup ? 'default' : 'filled'}
            value={isSetup ? email : (invitation.email ?? '')}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(error, 'email')}
          />
          <TextInput
            label="Name"
            description="Optional: shown to other administrators"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldError(error, 'name')}
          />
          <PasswordInput
            label="Password"
            description={passwordMin ? `At least ${passwordMin} characters` : undefined}
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(error, 'password')}
          />
          <Button type="submit" loading={busy} fullWidth>
            {isSetup ? 'Create account' : 'Set password'}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
