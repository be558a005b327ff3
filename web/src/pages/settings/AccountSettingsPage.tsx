import { Button, Card, Image, Group as Row, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { API_BASE, ApiError, api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { components } from '../../api/generated/admin-api';
import { DateText } from '../../components/DateText';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilePicker } from '../../components/FilePicker';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { SaveForm } from '../../components/SaveForm';
import { useAccount } from '../../layout/account-context';
import { AccountMfaCard } from '../security/AccountMfaCard';

type Settings = components['schemas']['AccountSettings'];

const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** /a/:accountId/settings — what employees see of the account: its name and logo. */
export function AccountSettingsPage() {
  const account = useAccount();
  const settings = useQuery({
    queryKey: ['account-settings', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/settings', { params: { path: { accountId: account.id } } })),
  });
  return (
    <>
      <PageHeader
        title="Account settings"
        description="How employees see your organisation in training mail, on their training pages and on the page a phishing simulation ends on."
      />
      {settings.isPending ? (
        <Loading />
      ) : settings.data ? (
        <Stack gap="lg" maw={760}>
          <NameForm settings={settings.data} />
          <LogoCard settings={settings.data} />
          <AccountMfaCard />
        </Stack>
      ) : (
        <ErrorAlert error={settings.error} title="Could not load the settings" />
      )}
    </>
  );
}

function NameForm({ settings }: { settings: Settings }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [name, setName] = useState(settings.display_name ?? '');
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PATCH('/accounts/{accountId}/settings', {
          params: { path: { accountId: account.id } },
          body: { display_name: name.trim() === '' ? null : name },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(['account-settings', account.id], saved);
      setName(saved.display_name ?? '');
      notifications.show({ color: 'teal', message: `Employees now see “${saved.shown_name}”` });
    },
  });
  const error = save.error instanceof ApiError ? save.error.fieldError('display_name') : undefined;
  return (
    <SaveForm
      save={save}
      fields={['display_name']}
      fieldLabels={FORM_FIELDS.accountSettings.names}
      errorTitle="Could not save the name"
      submitLabel="Save name"
      onCancel={() => setName(settings.display_name ?? '')}
    >
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <TextInput
            label="Name employees see"
            description={`In mail (“Sent on behalf of …”) and on their pages. Leave it empty to use the account’s name, “${settings.name}”.`}
            placeholder={settings.name}
            maxLength={150}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
          />
        </Stack>
      </Card>
    </SaveForm>
  );
}

function LogoCard({ settings }: { settings: Settings }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [picked, setPicked] = useState(0);
  const maxKiB = Math.floor(settings.logo_max_bytes / 1024);
  const done = (saved: Settings, message: string) => {
    queryClient.setQueryData(['account-settings', account.id], saved);
    setFile(null);
    setPicked((n) => n + 1);
    notifications.show({ color: 'teal', message });
  };
  const upload = useMutation({
    mutationFn: (logo: File) =>
      call(
        api.PUT('/accounts/{accountId}/settings/logo', {
          params: { path: { accountId: account.id } },
          // The image itself is the body, with its own media type; the server reads what it really is.
          body: logo as unknown as string,
          bodySerializer: (body: unknown) => body as Blob,
          headers: { 'Content-Type': logo.type },
        }),
      ),
    onSuccess: (saved) => done(saved, 'The logo is saved'),
  });
  const remove = useMutation({
    mutationFn: () =>
      call(
        api.DELETE('/accounts/{accountId}/settings/logo', { params: { path: { accountId: account.id } } }),
      ),
    onSuccess: () => done({ ...settings, logo: null }, 'The logo is removed'),
  });
  const problem =
    file === null
      ? undefined
      : !LOGO_TYPES.includes(file.type)
        ? 'Choose a PNG, JPEG or WebP image.'
        : file.size > settings.logo_max_bytes
          ? `The image is ${Math.ceil(file.size / 1024)} KiB; at most ${maxKiB} KiB.`
          : undefined;
  const logo = settings.logo;
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Logo
        </Title>
        {logo ? (
          <Row gap="md" align="center" wrap="wrap">
            <Card withBorder padding="sm" bg="gray.0">
              <Image
                src={`${API_BASE}/accounts/${account.id}/settings/logo?v=${logo.sha256.slice(0, 12)}`}
                alt="The current logo"
                h={48}
                w="auto"
                fit="contain"
                maw={240}
              />
            </Card>
            <Text size="sm" c="dimmed">
              {`${logo.content_type.replace('image/', '').toUpperCase()}, ${Math.ceil(logo.byte_size / 1024)} KiB, uploaded `}
              <DateText value={logo.updated_at} />
            </Text>
            <Button variant="default" color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
              Remove logo
            </Button>
          </Row>
        ) : (
          <Text size="sm" c="dimmed">
            No logo: employees see a shield and your organisation’s name.
          </Text>
        )}
        <FilePicker
          key={picked}
          label={logo ? 'Replace the logo' : 'Upload a logo'}
          description={`PNG, JPEG or WebP, at most ${maxKiB} KiB; shown about 40 pixels high. SVG is not accepted.`}
          accept={LOGO_TYPES.join(',')}
          onChange={(f) => {
            upload.reset();
            setFile(f);
          }}
        />
        {problem && (
          <Text size="sm" c="red.9" role="alert">
            {problem}
          </Text>
        )}
        <ErrorAlert error={upload.error} title="Could not save the logo" />
        <ErrorAlert error={remove.error} title="Could not remove the logo" />
        <Row>
          <Button
            disabled={file === null || problem !== undefined}
            loading={upload.isPending}
            onClick={() => file && upload.mutate(file)}
          >
            Upload logo
          </Button>
        </Row>
      </Stack>
    </Card>
  );
}
