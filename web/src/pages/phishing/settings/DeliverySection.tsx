import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  List,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../../api/client';
import type { components } from '../../../api/generated/admin-api';
import { CopyButton } from '../../../components/CopyButton';
import { DateText } from '../../../components/DateText';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Loading } from '../../../components/Loading';
import { useAccount } from '../../../layout/account-context';
import { useTemplatePool } from '../campaigns/phishing-api';

type Sheet = components['schemas']['PhishingDeliverySheet'];
type TestSend = components['schemas']['PhishingTestSend'];

/** How often the page asks for a test send's hits, and for how long after it was sent. */
const POLL_MS = 4000;

/** One value to paste somewhere, with its copy button. */
function Value({ value, label }: { value: string; label: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
      <CopyButton value={value} size="compact-xs" aria-label={`Copy ${label} ${value}`} />
    </Group>
  );
}

function Values({ values, label }: { values: string[]; label: string }) {
  return (
    <Stack gap={4} mt={4}>
      {values.map((v) => (
        <Value key={v} value={v} label={label} />
      ))}
    </Stack>
  );
}

function SendingIps({ sheet }: { sheet: Sheet }) {
  if (sheet.sending_ips.length > 0) return <Values values={sheet.sending_ips} label="sending IP" />;
  return (
    <Text size="sm" fw={500} mt={4}>
      Not known to Vigil: ask your SMTP provider for the outbound addresses of{' '}
      {sheet.smtp_host ? <Code>{sheet.smtp_host}</Code> : 'the mail server Vigil sends through'} (the operator
      can show them here with <Code>PHISHING_SENDING_IPS</Code>). Microsoft 365 needs at least one.
    </Text>
  );
}

/** The allow-listing sheet: the account's values, step by step for Microsoft 365 and Google Workspace. */
function AllowListSheet({ sheet }: { sheet: Sheet }) {
  const domains = sheet.sending_domains.map((d) => d.domain);
  return (
    <Card withBorder padding="lg" aria-label="Allow-listing sheet">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Allow-listing sheet
        </Title>
        <Text size="sm" c="dimmed">
          Mail filters quarantine simulations and scanners open their links, which counts clicks nobody made.
          Give your mail system these values of this account so simulations arrive untouched.
        </Text>
        <Text fw={600}>Microsoft 365 (advanced delivery policy)</Text>
        <List type="ordered" size="sm" spacing="xs">
          <List.Item>
            In the Microsoft Defender portal, open{' '}
            <b>Email &amp; collaboration → Policies &amp; rules → Threat policies</b>, then{' '}
            <b>Advanced delivery</b> under Rules, and the <b>Phishing simulation</b> tab. Choose <b>Add</b>{' '}
            (or <b>Edit</b> if a policy exists).
          </List.Item>
          <List.Item>
            Under <b>Domain</b>, add each sending domain (messages match on the envelope sender or DKIM
            domain):
            {sheet.sending_domains.map((d) => (
              <Stack key={d.domain} gap={0} mt={4}>
                <Value value={d.domain} label="sending domain" />
                <Text size="xs" c="dimmed">
                  From {d.sources.join('; ')}
                </Text>
              </Stack>
            ))}
          </List.Item>
          <List.Item>
            Under <b>Sending IP</b>, add the addresses the messages come from:
            <SendingIps sheet={sheet} />
          </List.Item>
          <List.Item>
            Under <b>Simulation URLs to allow</b>, add the simulation links, so Safe Links neither blocks nor
            opens them:
            <Values values={sheet.simulation_urls} label="simulation URL" />
          </List.Item>
          <List.Item>
            Save. A message is let through only when both its domain and its sending IP match; changes can
            take up to an hour.
          </List.Item>
        </List>
        <Text fw={600}>Google Workspace (Gmail)</Text>
        <List type="ordered" size="sm" spacing="xs">
          <List.Item>
            In the Google Admin console, open{' '}
            <b>Apps → Google Workspace → Gmail → Spam, phishing and malware</b> (for the top organisational
            unit).
          </List.Item>
          <List.Item>
            <b>Email allowlist</b>: add the sending IPs, then save.
            <SendingIps sheet={sheet} />
          </List.Item>
          <List.Item>
            <b>Inbound gateway</b>: turn it on and add the same IPs as gateway IPs; leave “Automatically
            detect external IP” and “Reject all mail not from gateway IPs” off. Under <b>Message tagging</b>,
            set the header name below with a pattern no token matches (for example <Code>^never$</Code>) and
            tick “Disable Gmail spam evaluation on mail from this gateway; only use the header value”.
            <Values values={[sheet.simulation_header]} label="simulation header" />
          </List.Item>
          <List.Item>
            <b>Spam</b>: add a setting that bypasses spam filters for an <b>approved senders</b> list holding
            the sending domains, and tick “Require sender authentication” only if the domains publish SPF or
            DKIM for the relay.
            <Values values={domains} label="approved sender domain" />
          </List.Item>
        </List>
        <Text fw={600}>Header rules (any mail gateway)</Text>
        <Text size="sm">
          Every simulation carries this header with its token: a gateway rule on it can skip filtering, and
          report buttons recognise simulations by it. Keep the name private to your security team.
        </Text>
        <Value value={sheet.simulation_header} label="simulation header" />
      </Stack>
    </Card>
  );
}

const VERDICT: Record<TestSend['verdict'], { color: string; text: string }> = {
  queued: { color: 'gray', text: 'Waiting to be sent…' },
  failed: { color: 'red', text: 'The mail server refused the message: see the Outbox for its error.' },
  waiting: { color: 'blue', text: 'Sent. Waiting for the first hit (scanners usually come within seconds)…' },
  no_hit: {
    color: 'orange',
    text: 'No hit at all after several minutes: the message probably did not arrive (check junk and the allow-list).',
  },
  scanner_only: {
    color: 'yellow',
    text: 'It arrived, and only machines opened it so far: open it as the person would to see a human hit.',
  },
  human: { color: 'teal', text: 'It arrived and a person opened it: delivery works.' },
};

/** A test send's hits, polled every few seconds while it is watched. */
function TestSendWatch({ initial }: { initial: TestSend }) {
  const account = useAccount();
  const watchUntil = Date.parse(initial.watch_until);
  const query = useQuery({
    queryKey: ['phishing-test-send', account.id, initial.id],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/phishing/delivery/test-sends/{testSendId}', {
          params: { path: { accountId: account.id, testSendId: initial.id } },
          signal,
        }),
      ),
    initialData: initial,
    refetchInterval: () => (Date.now() < watchUntil ? POLL_MS : false),
  });
  const send = query.data;
  const verdict = VERDICT[send.verdict];
  const watching = Date.now() < watchUntil;
  return (
    <Stack gap="xs" aria-label="Test send hits">
      <Text size="sm">
        To <b>{send.email}</b> with “{send.template_name}”, sent <DateText value={send.created_at} />
        {watching ? ' — watching for hits…' : ' — no longer watched'}
      </Text>
      <Alert color={verdict.color} role="status">
        {verdict.text}
      </Alert>
      {send.hits.length > 0 && (
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Why</Table.Th>
              <Table.Th>From</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {send.hits.map((h, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: hits are append-only, in time order
              <Table.Tr key={i}>
                <Table.Td>
                  <DateText value={h.at} />
                </Table.Td>
                <Table.Td>{h.kind === 'image' ? 'Image' : `Link (${h.method})`}</Table.Td>
                <Table.Td>
                  <Badge color={h.classification === 'human' ? 'teal' : 'gray'}>
                    {h.classification === 'human' ? 'Human' : 'Scanner'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{h.reason_text}</Text>
                  {h.detail && (
                    <Text size="xs" c="dimmed">
                      {h.detail}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{h.client_address ?? '—'}</Text>
                  <Text size="xs" c="dimmed" lineClamp={1} title={h.user_agent ?? ''}>
                    {h.user_agent ?? 'no user agent'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** The test send form: one employee's address and a template; then the hits that followed, live. */
function TestSendCard() {
  const account = useAccount();
  const templates = useTemplatePool(account.id);
  const [email, setEmail] = useState('');
  const [templateKey, setTemplateKey] = useState<string | null>(null);
  const [sent, setSent] = useState<TestSend | null>(null);
  const send = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/phishing/delivery/test-sends', {
          params: { path: { accountId: account.id } },
          body: { email: email.trim(), template_key: templateKey ?? '' },
        }),
      ),
    onSuccess: (created) => setSent(created),
  });
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Test send
        </Title>
        <Text size="sm" c="dimmed">
          Sends one simulation now, exactly as campaigns send it, to one of this account’s employees (nobody
          else can receive it). Its hits are shown here as they come, scanners apart from people, and count in
          no campaign. At most 10 an hour.
        </Text>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate();
          }}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Employee’s address"
              placeholder="ann.lee@example.com"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              w={280}
            />
            <Select
              label="Template"
              placeholder={templates.isPending ? 'Loading…' : 'Choose a template'}
              data={(templates.data?.results ?? []).map((t) => ({ value: t.key, label: t.name }))}
              value={templateKey}
              onChange={setTemplateKey}
              searchable
              required
              w={300}
            />
            <Button type="submit" loading={send.isPending} disabled={!email.trim() || !templateKey}>
              Send test
            </Button>
          </Group>
        </form>
        {send.error && <ErrorAlert error={send.error} title="Could not send the test" />}
        {sent && <TestSendWatch key={sent.id} initial={sent} />}
      </Stack>
    </Card>
  );
}

/** Phishing settings' delivery part: the allow-listing sheet and the test send. */
export function DeliverySection() {
  const account = useAccount();
  const sheet = useQuery({
    queryKey: ['phishing-delivery', account.id],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/phishing/delivery', {
          params: { path: { accountId: account.id } },
          signal,
        }),
      ),
  });
  return (
    <Stack gap="md" maw={900} mt="xl">
      <Title order={2} size="h3" id="delivery">
        Delivery
      </Title>
      {sheet.isPending ? (
        <Loading />
      ) : sheet.data ? (
        <AllowListSheet sheet={sheet.data} />
      ) : (
        <ErrorAlert error={sheet.error} title="Could not load the allow-listing sheet" />
      )}
      <TestSendCard />
    </Stack>
  );
}
