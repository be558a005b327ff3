import {
  Anchor,
  Button,
  Code,
  Modal,
  Group as Row,
  ScrollArea,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { DateText } from '../../components/DateText';
import { ErrorAlert } from '../../components/ErrorAlert';
import { invalidateAccount } from '../../components/invalidate';
import { Loading } from '../../components/Loading';
import { StatusBadge, statusLabel } from '../../components/StatusBadge';
import { accountPath } from '../../layout/account-context';
import { messageTitle } from './message-title';
import { previewDocument } from './preview';

interface MessageModalProps {
  accountId: number;
  messageId: number | null;
  opened: boolean;
  onClose: () => void;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The preview frame may only open new tabs (its links carry `target="_blank"`, see
 * previewDocument), and those tabs are ordinary pages: a learner link opened from here works
 * as it does from the mail. No scripts, forms, same-origin access or top navigation.
 */
const PREVIEW_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/**
 * One message as it was (or will be) sent: headers, the text body in a <pre>, and the HTML body
 * inside a sandboxed frame with no scripts, forms or same-origin access — never in the app's DOM.
 */
export function MessageModal({ accountId, messageId, opened, onClose }: MessageModalProps) {
  const queryClient = useQueryClient();
  const message = useQuery({
    queryKey: ['messages', accountId, 'one', messageId],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/messages/{messageId}', {
          params: { path: { accountId, messageId: messageId ?? 0 } },
        }),
      ),
    enabled: opened && messageId !== null,
  });
  const retry = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/messages/{messageId}/retry', {
          params: { path: { accountId, messageId: messageId ?? 0 } },
        }),
      ),
    onSuccess: () => {
      invalidateAccount(queryClient, accountId, 'messages');
      notifications.show({ color: 'teal', message: 'The message is queued to be sent again' });
    },
  });
  const m = message.data;

  return (
    <Modal
      opened={opened}
      onClose={() => {
        retry.reset();
        onClose();
      }}
      title={m ? messageTitle(m) : 'Message'}
      size="xl"
    >
      {!m ? (
        message.error ? (
          <ErrorAlert error={message.error} />
        ) : (
          <Loading label="Loading the message" />
        )
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} component="dl" m={0} spacing="sm" verticalSpacing="xs">
            <Fact label="To">
              {m.employee
                ? `${m.employee.first_name} ${m.employee.last_name} <${m.to_address}>`
                : m.to_address}
            </Fact>
            <Fact label="From">{m.from ?? '—'}</Fact>
            {!m.subject && <Fact label="Subject">Written when it is sent</Fact>}
            <Fact label="Kind">{statusLabel(m.kind)}</Fact>
            <Fact label="Status">
              <StatusBadge status={m.status} />
            </Fact>
            <Fact label="Campaign">
              {m.campaign ? (
                <Anchor
                  component={Link}
                  to={
                    m.kind === 'simulation'
                      ? accountPath(accountId, 'phishing', 'campaigns', m.campaign.id)
                      : accountPath(accountId, 'campaigns', m.campaign.id)
                  }
                  onClick={onClose}
                >
                  {m.campaign.name}
                </Anchor>
              ) : (
                '—'
              )}
            </Fact>
            <Fact label="Attempts">{m.attempts}</Fact>
            <Fact label="Created">
              <DateText value={m.created_at} absolute />
            </Fact>
            <Fact label="Sent">
              <DateText value={m.sent_at} absolute empty="Not yet" />
            </Fact>
            {m.next_attempt_at && m.status !== 'sent' && (
              <Fact label="Next attempt">
                <DateText value={m.next_attempt_at} absolute />
              </Fact>
            )}
          </SimpleGrid>
          {m.headers.length > 0 && (
            <div>
              <Text size="xs" c="dimmed" id="message-headers">
                {m.kind === 'simulation' ? 'Simulation header (let your mail gateway deliver it)' : 'Headers'}
              </Text>
              <Stack gap={2} aria-labelledby="message-headers" role="list">
                {m.headers.map((h) => (
                  <Code key={h.name} role="listitem" style={{ overflowWrap: 'anywhere' }}>
                    {h.name}: {h.value}
                  </Code>
                ))}
              </Stack>
            </div>
          )}
          {m.attempts_in_doubt > 0 && (
            <Text size="sm">
              <Text span fw={600}>
                May have arrived twice.
              </Text>{' '}
              {m.attempts_in_doubt === 1 ? 'An attempt' : `${m.attempts_in_doubt} attempts`} went to the mail
              server without its answer being recorded (a worker stopped, or the connection was lost), so the
              message was sent again. Every copy has the same Message-ID (some mail systems show such copies
              once).
            </Text>
          )}
          {m.last_error && (
            <Text size="sm" c="red.9">
              Last error: <Code>{m.last_error}</Code>
            </Text>
          )}
          {m.body_text === null && m.body_html === null ? (
            <Text c="dimmed" size="sm">
              The message is written when it is sent: its text appears here then.
            </Text>
          ) : (
            <Tabs defaultValue="html" variant="outline">
              <Tabs.List>
                <Tabs.Tab value="html">HTML</Tabs.Tab>
                <Tabs.Tab value="text">Plain text</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="html" pt="sm">
                <iframe
                  title="HTML body of the message"
                  sandbox={PREVIEW_SANDBOX}
                  referrerPolicy="no-referrer"
                  srcDoc={previewDocument(m.body_html ?? '')}
                  style={{
                    width: '100%',
                    height: 360,
                    border: '1px solid var(--mantine-color-default-border)',
                    borderRadius: 'var(--mantine-radius-md)',
                    background: 'white',
                  }}
                />
              </Tabs.Panel>
              <Tabs.Panel value="text" pt="sm">
                <ScrollArea.Autosize mah={360} type="auto">
                  <pre
                    style={{
                      margin: 0,
                      padding: 'var(--mantine-spacing-sm)',
                      whiteSpace: 'pre-wrap',
                      fontSize: 'var(--mantine-font-size-sm)',
                      background: 'var(--mantine-color-gray-0)',
                      borderRadius: 'var(--mantine-radius-md)',
                    }}
                  >
                    {m.body_text}
                  </pre>
                </ScrollArea.Autosize>
              </Tabs.Panel>
            </Tabs>
          )}
          <ErrorAlert error={retry.error} title="Could not retry the message" />
          <Row justify="flex-end">
            {m.status === 'failed' && (
              <Button
                leftSection={<IconRefresh size={16} aria-hidden />}
                loading={retry.isPending}
                onClick={() => retry.mutate()}
              >
                Retry
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Row>
        </Stack>
      )}
    </Modal>
  );
}
