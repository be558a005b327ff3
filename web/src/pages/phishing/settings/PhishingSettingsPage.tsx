import { Card, Code, List, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, api, call } from '../../../api/client';
import { BackLink } from '../../../components/BackLink';
import { DateText } from '../../../components/DateText';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Loading } from '../../../components/Loading';
import { PageHeader } from '../../../components/PageHeader';
import { SaveForm } from '../../../components/SaveForm';
import { accountPath, useAccount } from '../../../layout/account-context';

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
  const settings = useQuery({
    queryKey: ['phishing-settings', account.id],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/phishing/settings', { params: { path: { accountId: account.id } } }),
      ),
  });
  const back = <BackLink to={accountPath(account.id, 'phishing', 'templates')}>Phishing templates</BackLink>;
  return (
    <>
      <PageHeader
        title="Phishing settings"
        above={back}
        description="How simulations tell a person from the security products that scan mail."
      />
      {settings.isPending ? (
        <Loading />
      ) : settings.data ? (
        <SettingsForm networks={settings.data.scanner_networks} updatedAt={settings.data.updated_at} />
      ) : (
        <ErrorAlert error={settings.error} title="Could not load the settings" />
      )}
    </>
  );
}

function SettingsForm({ networks, updatedAt }: { networks: string[]; updatedAt: string | null }) {
  const account = useAccount();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [text, setText] = useState(networks.join('\n'));
  const [sent, setSent] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: () => {
      const lines = text.split('\n');
      setSent(lines);
      return call(
        api.PUT('/accounts/{accountId}/phishing/settings', {
          params: { path: { accountId: account.id } },
          body: { scanner_networks: lines },
        }),
      );
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['phishing-settings', account.id], saved);
      setText(saved.scanner_networks.join('\n'));
      notifications.show({ color: 'teal', message: 'Saved the scanner networks' });
    },
  });
  const problems = lineErrors(save.error, sent);

  return (
    <SaveForm
      save={save}
      fields={Object.keys((save.error instanceof ApiError && save.error.details) || {})}
      errorTitle="Could not save the settings"
      onCancel={() => navigate(accountPath(account.id, 'phishing', 'templates'))}
      submitLabel="Save settings"
      maw={760}
    >
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
