import { Card, Code, List, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, api, call } from '../../../api/client';
import { FORM_FIELDS } from '../../../api/form-fields';
import type { components } from '../../../api/generated/admin-api';
import { BackLink } from '../../../components/BackLink';
import { DateText } from '../../../components/DateText';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Loading } from '../../../components/Loading';
import { PageHeader } from '../../../components/PageHeader';
import { SaveForm } from '../../../components/SaveForm';
import { accountPath, useAccount } from '../../../layout/account-context';
import { usePhishingSettings } from '../campaigns/phishing-api';
import { DeliverySection } from './DeliverySection';

/** The server's messages for the lines of the list (`scanner_networks[3]` is line 4 of what was sent). */
function lineErrors(error: unknown, sent: string[]): string[] {
  if (!(error instanceof ApiError) || !error.details) return [];
  return Object.entries(error.details).flatMap(([field, messages]) => {
    const index = /^scanner_networks\[(\d+)\]$/.exec(field)?.[1];
    const text = Array.isArray(messages) ? messages.join('; ') : String(messages);
    if (index === undefined) return field === 'scanner_networks' ? [text] : [];
    return [`Line ${Number(index) + 1} (${sent[Number(index)]?.trim() ?? ''}): ${text}`];
  });
}

/** /a/:accountId/phishing/settings — the networks whose clicks count as a scanner's. */
export function PhishingSettingsPage() {
  const account = useAccount();
  const settings = usePhishingSettings(account.id);
  const back = <BackLink to={accountPath(account.id, 'phishing', 'templates')}>Phishing templates</BackLink>;
  return (
    <>
      <PageHeader
        title="Phishing settings"
        above={back}
        description="Who simulations come from, and how they tell a person from the security products that scan mail."
      />
      {settings.isPending ? (
        <Loading />
      ) : settings.data ? (
        <SettingsForm settings={settings.data} />
      ) : (
        <ErrorAlert error={settings.error} title="Could not load the settings" />
      )}
      <DeliverySection />
    </>
  );
}

type Settings = components['schemas']['PhishingSettings'];

/** The header's name when the account chose none (the server's SIMULATION_HEADER). */
const DEFAULT_SIMULATION_HEADER = 'X-Vigil-Simulation';

/** The server's message for one field of the form, if it refused it. */
function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError) || !error.details) return undefined;
  const messages = (error.details as Record<string, unknown>)[field];
  return messages === undefined
    ? undefined
    : Array.isArray(messages)
      ? messages.join('; ')
      : String(messages);
}

function SettingsForm({ settings }: { settings: Settings }) {
  const account = useAccount();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const updatedAt = settings.updated_at;
  const [text, setText] = useState(settings.scanner_networks.join('\n'));
  const [sender, setSender] = useState({
    sender_name: settings.sender_name ?? '',
    sender_address: settings.sender_address ?? '',
    sender_domain: settings.sender_domain ?? '',
  });
  const setPart = (key: keyof typeof sender) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setSender((s) => ({ ...s, [key]: value }));
  };
  const [header, setHeader] = useState(
    settings.simulation_header_is_default ? '' : settings.simulation_header,
  );
  const [sent, setSent] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: () => {
      const lines = text.split('\n');
      setSent(lines);
      return call(
        api.PUT('/accounts/{accountId}/phishing/settings', {
          params: { path: { accountId: account.id } },
          body: {
            scanner_networks: lines,
            sender_name: sender.sender_name.trim() || null,
            sender_address: sender.sender_address.trim() || null,
            sender_domain: sender.sender_domain.trim() || null,
            simulation_header: header.trim() || null,
          },
        }),
      );
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['phishing-settings', account.id], saved);
      setText(saved.scanner_networks.join('\n'));
      setHeader(saved.simulation_header_is_default ? '' : saved.simulation_header);
      notifications.show({ color: 'teal', message: 'Saved the phishing settings' });
    },
  });
  const problems = lineErrors(save.error, sent);

  return (
    <SaveForm
      fieldLabels={FORM_FIELDS.phishingSettings.names}
      save={save}
      fields={Object.keys((save.error instanceof ApiError && save.error.details) || {})}
      errorTitle="Could not save the settings"
      onCancel={() => navigate(accountPath(account.id, 'phishing', 'templates'))}
      submitLabel="Save settings"
      maw={760}
    >
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Text fw={600}>Default sender</Text>
          <Text size="sm" c="dimmed">
            Campaigns send from this unless they choose their own. Left empty: each template’s own name and
            address, at <Code>{settings.default_sender_domain}</Code> (the host simulations’ links point to).
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label="Sender name"
              placeholder="The template’s"
              maxLength={100}
              value={sender.sender_name}
              onChange={setPart('sender_name')}
              error={fieldError(save.error, 'sender_name')}
            />
            <TextInput
              label="Sender address"
              description="The part before the @"
              placeholder="The template’s"
              maxLength={64}
              rightSection={<Text size="sm">@</Text>}
              value={sender.sender_address}
              onChange={setPart('sender_address')}
              error={fieldError(save.error, 'sender_address')}
            />
            <TextInput
              label="Sender domain"
              description="e.g. mail.example.com"
              placeholder={settings.default_sender_domain}
              maxLength={253}
              value={sender.sender_domain}
              onChange={setPart('sender_domain')}
              error={fieldError(save.error, 'sender_domain')}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {settings.local_sender_allowed
              ? 'This server lets a sender domain be an IP address or localhost (for trying Vigil on one machine).'
              : 'A sender domain must be a public domain name: an IP address or localhost is refused unless the operator sets PHISHING_ALLOW_LOCAL_SENDER.'}
          </Text>
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <TextInput
            label="Simulation header"
            description={`The header every simulation carries and every report path reads. Empty: ${DEFAULT_SIMULATION_HEADER}.`}
            placeholder={DEFAULT_SIMULATION_HEADER}
            maxLength={64}
            w={{ base: '100%', sm: 360 }}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={header}
            onChange={(e) => setHeader(e.currentTarget.value)}
            error={fieldError(save.error, 'simulation_header')}
          />
          <Text size="sm" c="dimmed">
            A name of your own (starting <Code>X-</Code>) keeps employees from filtering simulations out with
            a mail rule on a name every Vigil customer shares; allow-list it in your mail gateway as well.
          </Text>
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Textarea
            label="Scanner networks"
            description="One network a line, in CIDR notation (203.0.113.0/24, 2001:db8::/32) or a single address. Lines starting with # are comments."
            placeholder={'# Mail gateway\n203.0.113.0/24'}
            autosize
            minRows={6}
            maxRows={20}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={problems.length > 0 ? 'Correct the lines listed below.' : undefined}
          />
          {problems.length > 0 && (
            <List size="sm" c="red.9" role="alert" aria-label="Problems in the list">
              {problems.map((p) => (
                <List.Item key={p}>{p}</List.Item>
              ))}
            </List>
          )}
          <Text size="sm" c="dimmed">
            Opens and clicks from these networks are recorded as <Code>automated</Code> and do not count in
            the results: add the addresses your mail security products (link scanners, sandboxes) fetch from.
            At most 500 networks, none wider than /8 (IPv4) or /16 (IPv6).
          </Text>
          {updatedAt && (
            <Text size="xs" c="dimmed">
              Last changed <DateText value={updatedAt} />
            </Text>
          )}
        </Stack>
      </Card>
    </SaveForm>
  );
}
