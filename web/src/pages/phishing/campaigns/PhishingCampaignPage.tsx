import { Button, Code, Group as Row, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChartBar, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call } from '../../../api/client';
import { FORM_FIELDS } from '../../../api/form-fields';
import { BackLink } from '../../../components/BackLink';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { DateText } from '../../../components/DateText';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatNumber } from '../../../components/format';
import { invalidateAccount } from '../../../components/invalidate';
import { Loading } from '../../../components/Loading';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { PageHeader } from '../../../components/PageHeader';
import { StatusBadge } from '../../../components/StatusBadge';
import { accountPath, useAccount } from '../../../layout/account-context';
import { failedByRuleText, phishProneText, reportRateText } from '../results/results-format';
import {
  deletePhishingDraft,
  type PhishingAction,
  phishingAction,
  usePhishingSettings,
} from './phishing-api';
import { formatInZone, formatPlanned } from './zoned-time';

const ACTIONS: { action: PhishingAction; label: string; confirm: string; color?: string }[] = [
  { action: 'schedule', label: 'Schedule', confirm: 'It launches by itself when its send window opens.' },
  { action: 'unschedule', label: 'Unschedule', confirm: 'It goes back to draft.' },
  {
    action: 'launch',
    label: 'Launch now',
    confirm: 'Every member of the target groups gets one simulation at a random moment in the send window.',
  },
  {
    action: 'stop',
    label: 'Stop',
    confirm: 'Simulations not yet sent are cancelled; links show the teachable page from now on.',
    color: 'red',
  },
  {
    action: 'archive',
    label: 'Archive',
    confirm: 'It leaves the list of active work; nothing can change any more.',
  },
];

/** A planned moment in the campaign's zone and, when the viewer's clock differs, in theirs. */
export function PlannedMoment({ value, zone }: { value: string; zone: string }) {
  const shown = formatPlanned(value, zone);
  return (
    <>
      <time dateTime={value}>{shown.campaign}</time>
      {shown.viewer && (
        <Text size="xs" c="dimmed" component="span" display="block">
          {shown.viewer}
        </Text>
      )}
    </>
  );
}

/** What a launch now would do: how many people, and the first and last moment it could plan. */
function LaunchPreview({ accountId, campaignId }: { accountId: number; campaignId: number }) {
  const preview = useQuery({
    queryKey: ['phishing-launch-preview', accountId, campaignId],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/phishing/campaigns/{campaignId}/launch-preview', {
          params: { path: { accountId, campaignId } },
          signal,
        }),
      ),
    staleTime: 0,
  });
  if (preview.error) return <ErrorAlert error={preview.error} title="Could not work out the plan" />;
  if (!preview.data) return <Text size="sm">Working out who gets what, and when…</Text>;
  const p = preview.data;
  return (
    <Stack gap="xs" aria-label="Launch plan">
      <Text size="sm">
        <strong>{formatNumber(p.recipients)}</strong> {p.recipients === 1 ? 'person gets' : 'people get'} one
        simulation each, at a random moment inside the send window, from <Code>{p.sender_domain}</Code>.
      </Text>
      {p.first_at && p.last_at ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <Fact label="First send">
            <PlannedMoment value={p.first_at} zone={p.time_zone} />
          </Fact>
          <Fact label="Last send">
            <PlannedMoment value={p.last_at} zone={p.time_zone} />
          </Fact>
        </SimpleGrid>
      ) : (
        <Text size="sm" c="red">
          The window has no sending time left.
        </Text>
      )}
    </Stack>
  );
}

type SenderParts = {
  sender_name: string | null;
  sender_address: string | null;
  sender_domain: string | null;
};

/**
 * The From the simulations carry: each part the campaign's own, else the account's default
 * (Phishing settings), else the template's name and address and the server's default domain.
 * Below it, which parts come from where, when not all are the campaign's.
 */
function SenderText({
  campaign,
  settings,
}: {
  campaign: SenderParts;
  settings: (SenderParts & { default_sender_domain: string }) | undefined;
}) {
  if (!settings) return <>…</>;
  const name = campaign.sender_name ?? settings.sender_name;
  const address = campaign.sender_address ?? settings.sender_address;
  const domain = campaign.sender_domain ?? settings.sender_domain ?? settings.default_sender_domain;
  const fromAccount = (['sender_name', 'sender_address', 'sender_domain'] as const).filter(
    (part) => campaign[part] === null && settings[part] !== null,
  );
  const PART = { sender_name: 'name', sender_address: 'address', sender_domain: 'domain' } as const;
  return (
    <>
      {name ?? 'Each template’s name'} &lt;{address ?? 'each template’s address'}@{domain}&gt;
      {fromAccount.length > 0 && (
        <Text size="xs" c="dimmed">
          The {listOf(fromAccount.map((part) => PART[part]))} from the account’s defaults (Phishing settings)
        </Text>
      )}
    </>
  );
}

function listOf(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** /a/:accountId/phishing/campaigns/:campaignId — a phishing campaign: its settings, figures and lifecycle buttons. */
export function PhishingCampaignPage() {
  const account = useAccount();
  const queryClient = useQueryClient();
  const campaignId = Number(useParams().campaignId);
  const campaign = useQuery({
    queryKey: ['phishing-campaign', account.id, campaignId],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/phishing/campaigns/{campaignId}', {
          params: { path: { accountId: account.id, campaignId } },
        }),
      ),
    enabled: Number.isInteger(campaignId),
  });
  const step = useMutation({
    mutationFn: (action: PhishingAction) => phishingAction(account.id, campaignId, action),
    onSettled: () => setDialog(null),
    onSuccess: (saved) => {
      queryClient.setQueryData(['phishing-campaign', account.id, campaignId], saved);
      void queryClient.invalidateQueries({ queryKey: ['phishing-campaigns', account.id] });
    },
  });
  // The account's default sender: what the campaign's unset parts become.
  const settings = usePhishingSettings(account.id);
  const [dialog, setDialog] = useState<PhishingAction | null>(null);
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();
  const launched = Boolean(campaign.data?.launched_at);
  // The rates come from the results summary (the same query the results page reads).
  const results = useQuery({
    queryKey: ['phishing-results', account.id, campaignId],
    queryFn: ({ signal }) =>
      call(
        api.GET('/accounts/{accountId}/phishing/campaigns/{campaignId}/results', {
          params: { path: { accountId: account.id, campaignId } },
          signal,
        }),
      ),
    enabled: launched,
  });
  const back = <BackLink to={accountPath(account.id, 'phishing')}>Phishing simulations</BackLink>;
  if (campaign.isPending && Number.isInteger(campaignId)) return <Loading />;
  if (!campaign.data) return <NotFoundPage thing="campaign" back={back} error={campaign.error} />;
  const c = campaign.data;
  const open = ACTIONS.find((a) => a.action === dialog);
  const f = c.figures;
  const all = results.data?.all;
  const resultsPath = accountPath(account.id, 'phishing', 'campaigns', c.id, 'results');
  return (
    <>
      {back}
      <PageHeader
        title={c.name}
        description={c.description || undefined}
        actions={
          <Row gap="xs">
            <StatusBadge status={c.status} />
            {c.allowed_actions.includes('edit') && (
              <Button
                variant="default"
                component={Link}
                to={accountPath(account.id, 'phishing', 'campaigns', c.id, 'edit')}
              >
                Edit
              </Button>
            )}
            {ACTIONS.filter((a) => c.allowed_actions.includes(a.action)).map((a) => (
              <Button key={a.action} color={a.color} onClick={() => setDialog(a.action)}>
                {a.label}
              </Button>
            ))}
            {c.allowed_actions.includes('delete') && (
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setDeleting(true)}
              >
                Delete draft
              </Button>
            )}
          </Row>
        }
      />
      <ConfirmDelete
        opened={open !== undefined}
        onClose={() => setDialog(null)}
        title={open ? `${open.label}: ${c.name}?` : ''}
        confirmLabel={open?.label ?? ''}
        confirmColor={open?.color ?? 'indigo'}
        onConfirm={() => (open ? step.mutateAsync(open.action) : Promise.resolve())}
        fieldLabels={FORM_FIELDS.phishingCampaign.names}
      >
        <Stack gap="sm">
          <Text size="sm">{open?.confirm}</Text>
          {(dialog === 'launch' || dialog === 'schedule') && (
            <LaunchPreview accountId={account.id} campaignId={c.id} />
          )}
        </Stack>
      </ConfirmDelete>
      <ConfirmDelete
        opened={deleting}
        onClose={() => setDeleting(false)}
        title="Delete the draft?"
        confirmLabel="Delete draft"
        onConfirm={async () => {
          await deletePhishingDraft(account.id, c.id);
          invalidateAccount(queryClient, account.id, 'phishing-campaigns', 'overview');
          queryClient.removeQueries({ queryKey: ['phishing-campaign', account.id, c.id] });
          notifications.show({ color: 'teal', message: `Deleted phishing campaign "${c.name}"` });
          navigate(accountPath(account.id, 'phishing'), { replace: true });
        }}
      >
        The draft <strong>{c.name}</strong> and its settings will be deleted. Nothing has been sent for it, so
        no results are lost. This cannot be undone.
      </ConfirmDelete>
      <Stack>
        <ErrorAlert
          error={step.error}
          title="Could not change the campaign"
          fieldLabels={FORM_FIELDS.phishingCampaign.names}
        />
        {launched && (
          <Row justify="space-between" align="flex-end" gap="md">
            <Row gap="lg">
              {all && (
                <>
                  <Fact label="Phish-prone">{phishProneText(all)}</Fact>
                  {c.remedial_on !== 'click' && (
                    <Fact label="Failed by this campaign’s rule">{failedByRuleText(all)}</Fact>
                  )}
                  <Fact label="Report rate">{reportRateText(all)}</Fact>
                </>
              )}
              {f && (
                <>
                  <Fact label="Recipients">{formatNumber(f.recipients)}</Fact>
                  <Fact label="Sent / planned">
                    {formatNumber(f.delivered + f.failed)} / {formatNumber(f.recipients)}
                  </Fact>
                  {c.status === 'running' && (
                    <Fact label="Next send">
                      {c.send_plan.next_at ? (
                        <PlannedMoment value={c.send_plan.next_at} zone={c.time_zone} />
                      ) : (
                        'Nothing left to send'
                      )}
                    </Fact>
                  )}
                  <Fact label="Delivered">{formatNumber(f.delivered)}</Fact>
                  <Fact label="Opened">{formatNumber(f.opened)}</Fact>
                  <Fact label="Clicked">{formatNumber(f.clicked)}</Fact>
                  <Fact label="Submitted">{formatNumber(f.submitted)}</Fact>
                  <Fact label="Reported">{formatNumber(f.reported)}</Fact>
                </>
              )}
            </Row>
            <Button component={Link} to={resultsPath} leftSection={<IconChartBar size={16} aria-hidden />}>
              Results
            </Button>
          </Row>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          <Fact label="Target groups">{c.groups.map((g) => g.name).join(', ') || '—'}</Fact>
          <Fact label="Templates">{c.templates.map((t) => t.name ?? t.key).join(', ') || '—'}</Fact>
          <Fact label="Send window">
            {c.window_start_at ? formatInZone(c.window_start_at, c.time_zone) : '—'} –{' '}
            {c.window_end_at ? formatInZone(c.window_end_at, c.time_zone) : '—'}
            <Text size="xs" c="dimmed">
              in {c.time_zone}
            </Text>
          </Fact>
          <Fact label="Days and hours">
            {c.weekdays.join(', ')} · {c.hour_start}:00–{c.hour_end}:00 ({c.time_zone})
          </Fact>
          <Fact label="Landing">
            {c.landing === 'teach_on_click' ? 'Teach on click' : 'Teach after the form'}
          </Fact>
          <Fact label="Remedial training">
            {c.remedial_courses.map((r) => r.title ?? r.key).join(', ') || 'None'} (on {c.remedial_on}
            {c.remedial_courses.length > 0 &&
              `, due ${c.remedial_due_days} ${c.remedial_due_days === 1 ? 'day' : 'days'} after`}
            )
          </Fact>
          <Fact label="Grace period">{c.grace_hours} hours</Fact>
          <Fact label={c.send_plan.estimate ? 'First possible send' : 'Planned sends'}>
            {c.send_plan.first_at ? (
              <>
                <PlannedMoment value={c.send_plan.first_at} zone={c.time_zone} />
                {!c.send_plan.estimate && c.send_plan.last_at && (
                  <Text size="xs" c="dimmed">
                    to {formatPlanned(c.send_plan.last_at, c.time_zone).campaign}
                  </Text>
                )}
              </>
            ) : (
              '—'
            )}
          </Fact>
          <Fact label="Sender">
            <SenderText campaign={c} settings={settings.data} />
          </Fact>
          <Fact label="Launched">{c.launched_at ? <DateText value={c.launched_at} absolute /> : '—'}</Fact>
        </SimpleGrid>
      </Stack>
    </>
  );
}
