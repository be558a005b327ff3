import {
  Badge,
  Button,
  Card,
  Code,
  NativeSelect,
  NumberInput,
  Group as Row,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { ApiError, api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import { AddButton } from '../../components/AddButton';
import { BackLink } from '../../components/BackLink';
import { ConfirmDeleteOf } from '../../components/ConfirmDelete';
import { DateText } from '../../components/DateText';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { IconButton } from '../../components/IconButton';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { PageSection } from '../../components/PageSection';
import { SaveForm } from '../../components/SaveForm';
import { baseTableProps, WIDE_ONLY } from '../../components/table';
import { useDialog } from '../../components/use-dialog';
import { accountPath, useAccount } from '../../layout/account-context';
import {
  FEEDBACK_BODY_MAX,
  FEEDBACK_SUBJECT_MAX,
  type FeedbackTemplate,
  RETENTION_DAYS_MAX,
  type ReportRule,
  RULE_KIND_LABELS,
  type RuleKind,
  VERDICT_LABELS,
  VERDICT_NOTE_MAX,
  VERDICTS,
  type Verdict,
} from './reports-api';
import { isForbidden, TriageError, VerdictBadge } from './VerdictBadge';

const DEFAULT_RETENTION_DAYS = 90;

/** /a/:accountId/reports/settings — how long reported mail is kept, the rules, the feedback mail. */
export function ReportingSettingsPage() {
  const account = useAccount();
  const rules = useQuery({
    queryKey: ['report-rules', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/report-rules', { params: { path: { accountId: account.id } } })),
  });
  return (
    <>
      <PageHeader
        title="Reporting settings"
        above={<BackLink to={accountPath(account.id, 'reports')}>Reports</BackLink>}
        description="How long reported mail is kept, the rules that judge it as it arrives, and what reporters are told."
      />
      {isForbidden(rules.error) ? (
        <TriageError error={rules.error} title="Could not load the rules" />
      ) : (
        <Stack gap="xl" maw={960}>
          <RetentionSection />
          <RulesSection rules={rules} />
          <TemplatesSection />
        </Stack>
      )}
    </>
  );
}

function RetentionSection() {
  const account = useAccount();
  const settings = useQuery({
    queryKey: ['reporting-settings', account.id],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/reporting/settings', { params: { path: { accountId: account.id } } }),
      ),
  });
  return (
    <PageSection title="Retention">
      {settings.data ? (
        <RetentionForm saved={settings.data.retention_days} />
      ) : settings.error ? (
        <TriageError error={settings.error} title="Could not load the retention" />
      ) : (
        <Loading />
      )}
    </PageSection>
  );
}

function RetentionForm({ saved }: { saved: number }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [days, setDays] = useState<number | string>(saved);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/accounts/{accountId}/reporting/settings', {
          params: { path: { accountId: account.id } },
          body: { retention_days: Number(days) },
        }),
      ),
    onSuccess: (next) => {
      queryClient.setQueryData(['reporting-settings', account.id], next);
      setDays(next.retention_days);
      notifications.show({
        color: 'teal',
        message: `Reported content is now kept ${next.retention_days} days`,
      });
    },
  });
  return (
    <SaveForm
      save={save}
      fields={['retention_days']}
      fieldLabels={FORM_FIELDS.reportingSettings.names}
      errorTitle="Could not save the retention"
      submitLabel="Save retention"
      onCancel={() => setDays(saved)}
    >
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <NumberInput
            label="Days to keep reported content"
            min={1}
            max={RETENTION_DAYS_MAX}
            allowDecimal={false}
            allowNegative={false}
            w={240}
            value={days}
            onChange={setDays}
            error={save.error instanceof ApiError ? save.error.fieldError('retention_days') : undefined}
          />
          <Text size="sm" c="dimmed">
            Reported mail may hold personal data. This many days after a message’s last report (
            {DEFAULT_RETENTION_DAYS} unless you choose otherwise), its headers, text, links and attachment
            list are deleted; its sender, subject, verdict, reporters and the counts stay, so the figures do
            not change.
          </Text>
        </Stack>
      </Card>
    </SaveForm>
  );
}

const KINDS: RuleKind[] = ['sender_domain', 'url_host'];
const EMPTY_RULE = { kind: 'sender_domain' as RuleKind, value: '', verdict: 'safe' as Verdict, note: '' };

function RulesSection({
  rules,
}: {
  rules: { data?: { results: ReportRule[] }; error: unknown; isFetching: boolean };
}) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const deleting = useDialog<ReportRule>();
  const remove = async (rule: ReportRule) => {
    await call(
      api.DELETE('/accounts/{accountId}/report-rules/{ruleId}', {
        params: { path: { accountId: account.id, ruleId: rule.id } },
      }),
    );
    void queryClient.invalidateQueries({ queryKey: ['report-rules', account.id] });
    notifications.show({ color: 'teal', message: `Deleted the rule for ${rule.value}` });
  };
  return (
    <PageSection
      title="Rules"
      actions={!adding && <AddButton onClick={() => setAdding(true)}>Add rule</AddButton>}
    >
      <Text size="sm" c="dimmed">
        A rule gives new reports a verdict as they arrive, and their reporters are told at once: a known
        newsletter’s domain as safe, a campaign’s link host as malicious. A sender domain matches names under
        it too; the first rule added wins.
      </Text>
      {adding && <RuleForm onDone={() => setAdding(false)} />}
      <TriageError error={rules.error} title="Could not load the rules" />
      <DataTable<ReportRule>
        {...baseTableProps}
        minHeight={rules.data?.results.length ? 0 : 160}
        aria-label="Rules"
        records={rules.data?.results ?? []}
        fetching={rules.isFetching && !rules.data}
        emptyState={
          <EmptyState title="No rules">Every report waits for an administrator’s verdict.</EmptyState>
        }
        columns={[
          {
            accessor: 'value',
            title: 'Domain or host',
            render: (r) => (
              <Stack gap={0}>
                <Code style={{ overflowWrap: 'anywhere' }}>{r.value}</Code>
                <Text size="xs" c="dimmed">
                  {RULE_KIND_LABELS[r.kind]}
                </Text>
              </Stack>
            ),
          },
          { accessor: 'verdict', title: 'Verdict', render: (r) => <VerdictBadge verdict={r.verdict} /> },
          {
            accessor: 'note',
            title: 'Note',
            render: (r) => (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {r.note || '—'}
              </Text>
            ),
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'created_at',
            title: 'Added',
            noWrap: true,
            render: (r) => <DateText value={r.created_at} />,
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'actions',
            title: 'Actions',
            textAlign: 'right',
            render: (r) => (
              <IconButton
                tooltip="Delete"
                label={`Delete the rule for ${r.value}`}
                icon={IconTrash}
                color="red"
                onClick={() => deleting.open(r)}
              />
            ),
          },
        ]}
      />
      <ConfirmDeleteOf dialog={deleting} title="Delete the rule?" onConfirm={remove}>
        New reports {deleting.target?.kind === 'url_host' ? 'linking to' : 'from'}{' '}
        <strong>{deleting.target?.value}</strong> wait for an administrator’s verdict again. Reports it
        already judged keep their verdict.
      </ConfirmDeleteOf>
    </PageSection>
  );
}

function RuleForm({ onDone }: { onDone: () => void }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [rule, setRule] = useState(EMPTY_RULE);
  const add = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/report-rules', {
          params: { path: { accountId: account.id } },
          body: rule,
        }),
      ),
    onSuccess: (added) => {
      void queryClient.invalidateQueries({ queryKey: ['report-rules', account.id] });
      notifications.show({ color: 'teal', message: `Added the rule for ${added.value}` });
      setRule(EMPTY_RULE);
      onDone();
    },
  });
  const fieldError = (field: string) =>
    add.error instanceof ApiError ? add.error.fieldError(field) : undefined;
  return (
    <SaveForm
      save={add}
      fields={['kind', 'value', 'verdict', 'note']}
      fieldLabels={FORM_FIELDS.reportRule.names}
      errorTitle="Could not add the rule"
      submitLabel="Add rule"
      onCancel={onDone}
    >
      <Card withBorder padding="md" component="fieldset" style={{ margin: 0 }} aria-label="New rule">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label="Kind"
            data={KINDS.map((k) => ({ value: k, label: RULE_KIND_LABELS[k] }))}
            value={rule.kind}
            onChange={(e) => setRule({ ...rule, kind: e.currentTarget.value as RuleKind })}
            error={fieldError('kind')}
          />
          <TextInput
            label="Domain or host"
            description={
              rule.kind === 'sender_domain' ? 'e.g. newsletter.example.com' : 'e.g. login.evil.example'
            }
            maxLength={253}
            required
            value={rule.value}
            onChange={(e) => setRule({ ...rule, value: e.currentTarget.value })}
            error={fieldError('value')}
            data-autofocus
          />
          <NativeSelect
            label="Verdict"
            data={VERDICTS.map((v) => ({ value: v, label: VERDICT_LABELS[v] }))}
            value={rule.verdict}
            onChange={(e) => setRule({ ...rule, verdict: e.currentTarget.value as Verdict })}
            error={fieldError('verdict')}
          />
          <TextInput
            label="Note"
            description="Goes into the feedback mail, like an administrator’s note."
            maxLength={VERDICT_NOTE_MAX}
            value={rule.note}
            onChange={(e) => setRule({ ...rule, note: e.currentTarget.value })}
            error={fieldError('note')}
          />
        </SimpleGrid>
      </Card>
    </SaveForm>
  );
}

function TemplatesSection() {
  const account = useAccount();
  const templates = useQuery({
    queryKey: ['feedback-templates', account.id],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/reporting/feedback-templates', {
          params: { path: { accountId: account.id } },
        }),
      ),
  });
  const data = templates.data;
  return (
    <PageSection title="Feedback mail">
      <Text size="sm" c="dimmed">
        What each reporter receives when their report is judged, one mail per verdict.
      </Text>
      {!data ? (
        templates.error ? (
          <TriageError error={templates.error} title="Could not load the feedback mail" />
        ) : (
          <Loading />
        )
      ) : (
        <Tabs defaultValue="malicious" variant="outline">
          <Tabs.List>
            {VERDICTS.map((v) => (
              <Tabs.Tab key={v} value={v}>
                {VERDICT_LABELS[v]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {data.results.map((t) => (
            <Tabs.Panel key={t.verdict} value={t.verdict} pt="sm">
              <TemplateForm template={t} placeholders={data.placeholders} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </PageSection>
  );
}

function TemplateForm({ template, placeholders }: { template: FeedbackTemplate; placeholders: string[] }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({ subject: template.subject, body: template.body });
  const label = VERDICT_LABELS[template.verdict].toLowerCase();
  const saved = (answer: { results: FeedbackTemplate[]; placeholders: string[] }, message: string) => {
    queryClient.setQueryData(['feedback-templates', account.id], answer);
    const next = answer.results.find((t) => t.verdict === template.verdict);
    if (next) setDraft({ subject: next.subject, body: next.body });
    notifications.show({ color: 'teal', message });
  };
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/accounts/{accountId}/reporting/feedback-templates/{verdict}', {
          params: { path: { accountId: account.id, verdict: template.verdict } },
          body: draft,
        }),
      ),
    onSuccess: (answer) => saved(answer, `Saved the mail for “${label}”`),
  });
  const restore = useMutation({
    mutationFn: () =>
      call(
        api.DELETE('/accounts/{accountId}/reporting/feedback-templates/{verdict}', {
          params: { path: { accountId: account.id, verdict: template.verdict } },
        }),
      ),
    onSuccess: (answer) => saved(answer, `The mail for “${label}” is the default again`),
  });
  const fieldError = (field: string) =>
    save.error instanceof ApiError ? save.error.fieldError(field) : undefined;
  return (
    <Stack gap="sm">
      <Row gap="xs">
        <Badge variant="light" color={template.is_default ? 'gray' : 'blue'}>
          {template.is_default ? 'Default' : 'Your own'}
        </Badge>
        <Text size="sm" c="dimmed">
          Sent to each reporter of a message judged {label}.
        </Text>
      </Row>
      <SaveForm
        save={save}
        fields={['subject', 'body']}
        fieldLabels={FORM_FIELDS.feedbackTemplate.names}
        errorTitle={`Could not save the mail for “${label}”`}
        submitLabel="Save mail"
        onCancel={() => setDraft({ subject: template.subject, body: template.body })}
      >
        <TextInput
          label="Subject"
          maxLength={FEEDBACK_SUBJECT_MAX}
          value={draft.subject}
          onChange={(e) => setDraft({ ...draft, subject: e.currentTarget.value })}
          error={fieldError('subject')}
        />
        <Textarea
          label="Body"
          autosize
          minRows={6}
          maxRows={18}
          maxLength={FEEDBACK_BODY_MAX}
          value={draft.body}
          onChange={(e) => setDraft({ ...draft, body: e.currentTarget.value })}
          error={fieldError('body')}
        />
        <Text size="sm" c="dimmed">
          Placeholders:{' '}
          {placeholders.map((p, i) => (
            <span key={p}>
              {i > 0 && ', '}
              <Code>{`{{${p}}}`}</Code>
            </span>
          ))}
          . The note is the verdict’s (empty when none was written).
        </Text>
      </SaveForm>
      <ErrorAlert error={restore.error} title="Could not restore the default" />
      {!template.is_default && (
        <Row>
          <Button variant="subtle" color="gray" loading={restore.isPending} onClick={() => restore.mutate()}>
            Restore default
          </Button>
        </Row>
      )}
    </Stack>
  );
}
