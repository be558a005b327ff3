import {
  Alert,
  Button,
  Card,
  Code,
  Group as Row,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
} from '@mantine/core';
import { IconClock, IconGavel } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { API_BASE, ApiError } from '../../api/client';
import { BackLink } from '../../components/BackLink';
import { CopyButton } from '../../components/CopyButton';
import { DateText } from '../../components/DateText';
import { Fact } from '../../components/Fact';
import { plural } from '../../components/format';
import { Loading } from '../../components/Loading';
import { NotFoundPage } from '../../components/NotFoundPage';
import { PageHeader } from '../../components/PageHeader';
import { PageSection } from '../../components/PageSection';
import { baseTableProps, WIDE_ONLY } from '../../components/table';
import { accountPath, useAccount } from '../../layout/account-context';
import {
  CHANNEL_LABELS,
  formatBytes,
  type ReportDetail,
  type Reporter,
  type ReportMessage,
  useReport,
  VERDICT_LABELS,
} from './reports-api';
import { TriageError, VerdictBadge } from './VerdictBadge';
import { VerdictDialog } from './VerdictDialog';

/** /a/:accountId/reports/:reportId — one reported message: who reported it, its safe view, its verdict. */
export function ReportPage() {
  const account = useAccount();
  const reportId = Number(useParams().reportId);
  const report = useReport(account.id, reportId);
  const [judging, setJudging] = useState(false);
  const back = <BackLink to={accountPath(account.id, 'reports')}>Reports</BackLink>;

  if (report.isPending && Number.isInteger(reportId)) return <Loading label="Loading the report" />;
  const r = report.data;
  if (!r) {
    if (report.error && !(report.error instanceof ApiError && report.error.status === 404)) {
      return (
        <>
          <PageHeader title="Report" above={back} />
          <TriageError error={report.error} title="Could not load the report" />
        </>
      );
    }
    return <NotFoundPage thing="report" back={back} error={report.error} />;
  }
  return (
    <>
      <PageHeader
        title={r.subject || '(no subject)'}
        above={back}
        description={
          <>
            From {r.sender} · reported by {plural(r.reporter_count, 'person', 'people')}
            {r.reporters_outside_scope > 0 &&
              ` (${plural(r.reporters_outside_scope, 'of them', 'of them')} outside your groups, not listed)`}
          </>
        }
        actions={
          <Button
            leftSection={<IconGavel size={16} aria-hidden />}
            variant={r.verdict ? 'default' : 'filled'}
            onClick={() => setJudging(true)}
          >
            {r.verdict ? 'Change verdict' : 'Give verdict'}
          </Button>
        }
      />
      <Stack gap="xl">
        <VerdictCard report={r} />
        <ReportersSection reporters={r.reporters} />
        {r.message ? (
          <SafeView accountId={account.id} reportId={r.id} message={r.message} />
        ) : (
          <Alert color="gray" variant="light" icon={<IconClock aria-hidden />}>
            <Text fw={600} size="sm">
              The message’s content was deleted
            </Text>
            <Text size="sm">
              The retention period (Reporting settings) ended <DateText value={r.content_deleted_at} />: its
              headers, text, links and attachments are gone. The verdict, the reporters and the counts are
              kept.
            </Text>
          </Alert>
        )}
      </Stack>
      <VerdictDialog accountId={account.id} report={r} opened={judging} onClose={() => setJudging(false)} />
    </>
  );
}

/** The verdict, who or what gave it and when, and its note. */
function VerdictCard({ report }: { report: ReportDetail }) {
  return (
    <Card withBorder padding="md" component="section" aria-label="Verdict">
      <SimpleGrid cols={{ base: 2, md: 4 }} component="dl" m={0} spacing="sm" verticalSpacing="sm">
        <Fact label="Verdict">
          <VerdictBadge verdict={report.verdict} size="lg" />
        </Fact>
        <Fact label="Judged by">{report.verdict_by ? <JudgedBy by={report.verdict_by} /> : '—'}</Fact>
        <Fact label="Judged">
          <DateText value={report.verdict_at} empty="Not yet" />
        </Fact>
        <Fact label="First reported">
          <DateText value={report.first_reported_at} />
        </Fact>
      </SimpleGrid>
      {report.verdict_note && (
        <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <Text span c="dimmed" size="sm">
            Note:{' '}
          </Text>
          {report.verdict_note}
        </Text>
      )}
    </Card>
  );
}

/** The administrator (by name) or the rule that judged it, as the server names them. */
function JudgedBy({ by }: { by: NonNullable<ReportDetail['verdict_by']> }) {
  if (by.kind === 'rule') return <>{by.name ? `The rule on ${by.name}` : 'A rule (since deleted)'}</>;
  return <>{by.name ?? 'An administrator'}</>;
}

/** Everyone who reported the message: how, when, and whether they were told the verdict. */
function ReportersSection({ reporters }: { reporters: Reporter[] }) {
  return (
    <PageSection title="Reporters">
      <DataTable<Reporter>
        {...baseTableProps}
        minHeight={0}
        aria-label="Reporters"
        idAccessor="address"
        records={reporters}
        columns={[
          {
            accessor: 'address',
            title: 'Reporter',
            render: (p) => (
              <Stack gap={0}>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {p.address}
                </Text>
                <Text size="xs" c="dimmed" hiddenFrom="sm">
                  {CHANNEL_LABELS[p.channel]} · <DateText value={p.reported_at} />
                </Text>
              </Stack>
            ),
          },
          {
            accessor: 'channel',
            title: 'Channel',
            render: (p) => CHANNEL_LABELS[p.channel],
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'reported_at',
            title: 'Reported',
            noWrap: true,
            render: (p) => (
              <Stack gap={0}>
                <DateText value={p.reported_at} />
                {p.last_reported_at !== p.reported_at && (
                  <Text size="xs" c="dimmed">
                    again <DateText value={p.last_reported_at} />
                  </Text>
                )}
              </Stack>
            ),
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'feedback_verdict',
            title: 'Feedback',
            render: (p) =>
              p.feedback_verdict ? (
                <Stack gap={0}>
                  <Text size="sm">Told “{VERDICT_LABELS[p.feedback_verdict].toLowerCase()}”</Text>
                  <Text size="xs" c="dimmed">
                    <DateText value={p.feedback_at} />
                  </Text>
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">
                  Not yet
                </Text>
              ),
          },
        ]}
      />
    </PageSection>
  );
}

const PRE_STYLE = {
  margin: 0,
  padding: 'var(--mantine-spacing-sm)',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontSize: 'var(--mantine-font-size-sm)',
  background: 'var(--mantine-color-gray-0)',
  borderRadius: 'var(--mantine-radius-md)',
} as const;

/**
 * The message as data, never as a page: headers as a table, the text in a <pre>, links defanged
 * (text to copy, never a link), attachments by name and hash (never opened), and the HTML only in
 * a frame sandboxed with nothing allowed, loaded from a route whose own policy forbids script and
 * network.
 */
function SafeView({
  accountId,
  reportId,
  message: m,
}: {
  accountId: number;
  reportId: number;
  message: ReportMessage;
}) {
  return (
    <PageSection title="The reported message">
      <SimpleGrid cols={{ base: 1, sm: 2 }} component="dl" m={0} spacing="sm" verticalSpacing="xs">
        <Fact label="From">
          <span style={{ overflowWrap: 'anywhere' }}>
            {m.from.name ? `${m.from.name} <${m.from.address}>` : m.from.address}
          </span>
        </Fact>
        <Fact label="To">
          <span style={{ overflowWrap: 'anywhere' }}>{m.to.join(', ') || '—'}</span>
        </Fact>
        <Fact label="Sent">
          <DateText value={m.date} absolute />
        </Fact>
        <Fact label="Message-ID">
          <span style={{ overflowWrap: 'anywhere' }}>{m.message_id || '—'}</span>
        </Fact>
      </SimpleGrid>
      {m.truncated.length > 0 && (
        <Text size="sm" c="dimmed">
          Cut to their limit: {m.truncated.join(', ')}.
        </Text>
      )}
      <Tabs defaultValue="text" variant="outline" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="text">Text</Tabs.Tab>
          <Tabs.Tab value="headers">Headers ({m.headers.length})</Tabs.Tab>
          <Tabs.Tab value="urls">URLs ({m.urls.length})</Tabs.Tab>
          <Tabs.Tab value="attachments">Attachments ({m.attachments.length})</Tabs.Tab>
          {m.has_html && <Tabs.Tab value="html">HTML view</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="text" pt="sm">
          {m.text ? (
            <ScrollArea.Autosize mah={520} type="auto">
              <pre style={PRE_STYLE}>{m.text}</pre>
            </ScrollArea.Autosize>
          ) : (
            <Text size="sm" c="dimmed">
              The message has no text.
            </Text>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="headers" pt="sm">
          <Table.ScrollContainer minWidth={0}>
            <Table withTableBorder layout="fixed" aria-label="Headers" verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="30%">Name</Table.Th>
                  <Table.Th>Value</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {m.headers.map((h, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: headers repeat (Received) and never move
                  <Table.Tr key={i}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Text size="sm" ff="monospace">
                        {h.name}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Text size="sm" ff="monospace">
                        {h.value}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Tabs.Panel>
        <Tabs.Panel value="urls" pt="sm">
          <UrlList urls={m.urls} />
        </Tabs.Panel>
        <Tabs.Panel value="attachments" pt="sm">
          <AttachmentList attachments={m.attachments} />
        </Tabs.Panel>
        {m.has_html && (
          <Tabs.Panel value="html" pt="sm">
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                Shown without scripts, forms or any network access: images, fonts and styles from the web do
                not load, and nothing tells the sender it was opened.
              </Text>
              <iframe
                title="HTML of the reported message"
                sandbox=""
                referrerPolicy="no-referrer"
                src={`${API_BASE}/accounts/${accountId}/reports/${reportId}/html`}
                style={{
                  width: '100%',
                  height: 480,
                  border: '1px solid var(--mantine-color-default-border)',
                  borderRadius: 'var(--mantine-radius-md)',
                  background: 'white',
                }}
              />
            </Stack>
          </Tabs.Panel>
        )}
      </Tabs>
    </PageSection>
  );
}

/** A list of cards (links, attachments) with a line of help above, or a line saying there are none. */
function CardList<T>({
  items,
  label,
  none,
  help,
  render,
}: {
  items: T[];
  label: string;
  none: string;
  help: string;
  render: (item: T) => ReactNode;
}) {
  if (items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {none}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {help}
      </Text>
      <Stack gap={0} component="ul" p={0} m={0} aria-label={label} style={{ listStyle: 'none' }}>
        {items.map((item, i) => (
          <Card
            // biome-ignore lint/suspicious/noArrayIndexKey: the list never changes order
            key={i}
            component="li"
            withBorder
            radius={0}
            padding="sm"
            style={{ marginTop: i === 0 ? 0 : -1 }}
          >
            <Stack gap={4}>{render(item)}</Stack>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}

function UrlList({ urls }: { urls: ReportMessage['urls'] }) {
  return (
    <CardList
      items={urls}
      label="URLs"
      none="The message has no links."
      help="Defanged so that nothing opens them: paste them into a ticket or a chat as they are."
      render={(u) => (
        <>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {u.defanged}
          </Code>
          <Row justify="space-between" wrap="nowrap" gap="sm">
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                Host{' '}
              </Text>
              <Text span fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {u.host.replaceAll('.', '[.]')}
              </Text>
            </Text>
            <CopyButton value={u.defanged} size="xs" aria-label={`Copy ${u.defanged}`} />
          </Row>
        </>
      )}
    />
  );
}

function AttachmentList({ attachments }: { attachments: ReportMessage['attachments'] }) {
  return (
    <CardList
      items={attachments}
      label="Attachments"
      none="The message has no attachments."
      help="Never opened or kept: look a file up by its SHA-256 in your malware scanner or threat intelligence."
      render={(a) => (
        <>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {a.name || '(no name)'}
          </Text>
          <Text size="xs" c="dimmed">
            {a.content_type} · {formatBytes(a.size)}
          </Text>
          {a.sha256 ? (
            <Row justify="space-between" wrap="nowrap" gap="sm">
              <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                SHA-256 {a.sha256}
              </Text>
              <CopyButton
                value={a.sha256}
                size="xs"
                aria-label={`Copy the SHA-256 of ${a.name || 'the attachment'}`}
              />
            </Row>
          ) : (
            <Text size="xs" c="dimmed">
              Only its name was reported (no content, so no SHA-256).
            </Text>
          )}
        </>
      )}
    />
  );
}
