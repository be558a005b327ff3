import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  Image,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { startRegistration } from '@simplewebauthn/browser';
import { IconDeviceMobile, IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client';
import type { components } from '../../api/generated/admin-api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { CopyButton } from '../../components/CopyButton';
import { DateText } from '../../components/DateText';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { SecretField } from '../../components/SecretShownOnce';

type Factor = components['schemas']['MfaFactor'];
type TotpEnrolment = components['schemas']['TotpEnrolment'];

export const MFA_KEY = ['mfa'] as const;

/** The recovery codes, shown once: to print or copy now. */
export function RecoveryCodesModal({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  return (
    <Modal
      opened={codes !== null}
      onClose={onClose}
      title="Your recovery codes"
      closeOnClickOutside={false}
      size="md"
    >
      <Stack>
        <Text size="sm">
          Each code signs you in once if you lose your phone or key. Keep them somewhere safe, apart from your
          password: they are shown this once.
        </Text>
        <SimpleGrid cols={2} spacing="xs" aria-label="Recovery codes">
          {(codes ?? []).map((code) => (
            <Code key={code} fz="md" ta="center" py={4}>
              {code}
            </Code>
          ))}
        </SimpleGrid>
        <Group justify="space-between">
          <CopyButton value={(codes ?? []).join('\n')} />
          <Button onClick={onClose}>I have saved them</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Adding an authenticator app: the QR code and the secret as text, confirmed by the app's first code. */
function TotpDialog({
  enrolment,
  onClose,
  onDone,
}: {
  enrolment: TotpEnrolment | null;
  onClose: () => void;
  onDone: (codes: string[] | null) => void;
}) {
  const [code, setCode] = useState('');
  const [name, setName] = useState('Authenticator app');
  const confirm = useMutation({
    mutationFn: () =>
      call(
        api.POST('/mfa/totp/confirm', {
          body: { factor_id: enrolment?.factor_id ?? 0, code: code.trim(), name: name.trim() },
        }),
      ),
    onSuccess: (answer) => {
      setCode('');
      onDone(answer.recovery_codes);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate();
  };
  return (
    <Modal opened={enrolment !== null} onClose={onClose} title="Add an authenticator app" size="md">
      {enrolment && (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">
              Scan this code with an authenticator app (such as Google Authenticator, Microsoft Authenticator,
              1Password or Bitwarden), or type the key below into it.
            </Text>
            <Image
              src={enrolment.qr_code}
              alt="QR code to scan with an authenticator app"
              w={200}
              h={200}
              mx="auto"
            />
            <SecretField label="Key" secret={enrolment.secret} />
            <TextInput
              label="Name"
              description="To tell your factors apart"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <TextInput
              label="Code from the app"
              description="Six digits"
              autoComplete="one-time-code"
              inputMode="numeric"
              required
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={confirm.error ? 'That is not the current code: check the app and try again' : undefined}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={confirm.isPending}>
                Confirm
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RenameDialog({ factor, onClose }: { factor: Factor | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const rename = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/mfa/factors/{factorId}', {
          params: { path: { factorId: factor?.id ?? 0 } },
          body: { name },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: MFA_KEY });
      onClose();
    },
  });
  return (
    <Modal opened={factor !== null} onClose={onClose} title="Rename factor">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          rename.mutate();
        }}
        noValidate
      >
        <Stack>
          <ErrorAlert error={rename.error} hideFields={['name']} />
          <TextInput
            label="Name"
            defaultValue={factor?.name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={rename.error ? 'Give a name of 1 to 64 characters' : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button type="submit" loading={rename.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A button whose label wraps on a narrow screen instead of being cut (a phone's enrolment page). */
const WRAPPING_BUTTON = {
  h: 'auto',
  mih: 36,
  maw: '100%',
  styles: { label: { whiteSpace: 'normal' as const, height: 'auto', lineHeight: 1.35, paddingBlock: 8 } },
};

/**
 * The signed-in user's second factors: each with its name, when added and last used, to rename
 * or remove; adding an authenticator app or a passkey; the recovery codes. While a required
 * enrolment is under way (`enrolling`) only adding is offered, and `onFirstFactor` is told.
 */
export function MfaFactors({
  enrolling = false,
  onFirstFactor,
}: {
  enrolling?: boolean;
  onFirstFactor?: () => void;
}) {
  const queryClient = useQueryClient();
  const overview = useQuery({ queryKey: MFA_KEY, queryFn: () => call(api.GET('/mfa')) });
  const [totp, setTotp] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [renaming, setRenaming] = useState<Factor | null>(null);
  const [removing, setRemoving] = useState<Factor | null>(null);
  const [regenerating, setRegenerating] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<'totp' | 'passkey' | null>(null);

  const enrolled = async (recoveryCodes: string[] | null) => {
    setTotp(null);
    await queryClient.invalidateQueries({ queryKey: MFA_KEY });
    if (recoveryCodes) setCodes(recoveryCodes);
    else if (enrolling) onFirstFactor?.();
  };
  const addTotp = async () => {
    setBusy('totp');
    setError(null);
    try {
      setTotp(await call(api.POST('/mfa/totp', {})));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const addPasskey = async () => {
    setBusy('passkey');
    setError(null);
    try {
      const options = await call(api.POST('/mfa/passkeys/options', {}));
      const response = await startRegistration({ optionsJSON: options as never });
      const answer = await call(api.POST('/mfa/passkeys', { body: { response: response as never } }));
      await enrolled(answer.recovery_codes);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  if (overview.isPending) return <Loading />;
  if (!overview.data) return <ErrorAlert error={overview.error} title="Could not load your second factors" />;
  const { factors, recovery_codes_left, required } = overview.data;

  return (
    <Stack gap="lg">
      <ErrorAlert error={error} />
      <Card withBorder padding="lg">
        <Stack>
          <Group justify="space-between">
            <Title order={2} size="h4">
              Second factors
            </Title>
            {required && <Badge variant="light">Required</Badge>}
          </Group>
          {factors.length === 0 ? (
            <Text size="sm" c="dimmed">
              None yet. Add an authenticator app or a passkey: signing in will then ask for it after your
              password.
            </Text>
          ) : (
            <Stack gap="xs" aria-label="Your second factors">
              {factors.map((factor) => (
                <Group key={factor.id} justify="space-between" py={4}>
                  <Group gap="sm" wrap="nowrap">
                    {factor.kind === 'totp' ? (
                      <IconDeviceMobile size={20} aria-hidden />
                    ) : (
                      <IconKey size={20} aria-hidden />
                    )}
                    <div>
                      <Text fw={500}>{factor.name}</Text>
                      <Text size="xs" c="dimmed">
                        {factor.kind === 'totp' ? 'Authenticator app' : 'Passkey or security key'} · added{' '}
                        <DateText value={factor.created_at} /> · last used{' '}
                        <DateText value={factor.last_used_at} empty="never" />
                      </Text>
                    </div>
                  </Group>
                  {!enrolling && (
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setRenaming(factor)}
                        aria-label={`Rename ${factor.name}`}
                      >
                        Rename
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        color="red"
                        onClick={() => setRemoving(factor)}
                        aria-label={`Remove ${factor.name}`}
                      >
                        Remove
                      </Button>
                    </Group>
                  )}
                </Group>
              ))}
            </Stack>
          )}
          <Group>
            <Button
              leftSection={<IconDeviceMobile size={18} aria-hidden />}
              onClick={addTotp}
              loading={busy === 'totp'}
              {...WRAPPING_BUTTON}
            >
              Add an authenticator app
            </Button>
            <Button
              variant="default"
              leftSection={<IconKey size={18} aria-hidden />}
              onClick={addPasskey}
              loading={busy === 'passkey'}
              {...WRAPPING_BUTTON}
            >
              Add a passkey or security key
            </Button>
          </Group>
        </Stack>
      </Card>
      {!enrolling && factors.length > 0 && (
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Recovery codes
            </Title>
            <Text size="sm">
              {recovery_codes_left} of 10 left. Each signs you in once when your phone or key is not at hand.
              New codes replace the old ones.
            </Text>
            <Group>
              <Button variant="default" onClick={() => setRegenerating(true)}>
                Make new recovery codes
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
      <TotpDialog enrolment={totp} onClose={() => setTotp(null)} onDone={enrolled} />
      <RecoveryCodesModal
        codes={codes}
        onClose={() => {
          setCodes(null);
          if (enrolling) onFirstFactor?.();
        }}
      />
      <RenameDialog factor={renaming} onClose={() => setRenaming(null)} />
      <ConfirmDelete
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.name ?? 'factor'}?`}
        confirmLabel="Remove"
        onConfirm={async () => {
          await call(
            api.DELETE('/mfa/factors/{factorId}', { params: { path: { factorId: removing?.id ?? 0 } } }),
          );
          await queryClient.invalidateQueries({ queryKey: MFA_KEY });
        }}
      >
        It will no longer sign you in.
        {factors.length === 1 &&
          ' It is your last factor: signing in will ask only for your password, and your recovery codes stop working.'}
      </ConfirmDelete>
      <ConfirmDelete
        opened={regenerating}
        onClose={() => setRegenerating(false)}
        title="Make new recovery codes?"
        confirmLabel="Make new codes"
        confirmColor="blue"
        onConfirm={async () => {
          const answer = await call(api.POST('/mfa/recovery-codes', {}));
          await queryClient.invalidateQueries({ queryKey: MFA_KEY });
          setCodes(answer.recovery_codes);
        }}
      >
        Your current recovery codes stop working.
      </ConfirmDelete>
    </Stack>
  );
}
