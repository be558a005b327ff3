import { Button, Group as Row, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, call } from '../../../api/client';
import { BackLink } from '../../../components/BackLink';
import { ConfirmDelete } from '../../../components/ConfirmDelete';
import { DateText } from '../../../components/DateText';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatNumber } from '../../../components/format';
import { Loading } from '../../../components/Loading';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { PageHeader } from '../../../components/PageHeader';
import { StatusBadge } from '../../../components/StatusBadge';
import { accountPath, useAccount } from '../../../layout/account-context';
import { percentOf } from '../results/results-format';
import { type PhishingAction, phishingAction } from './phishing-api';
import { formatInZone } from './zoned-time';

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
  const [dialog, setDialog] = useState<PhishingAction | null>(null);
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
      >
        {open?.confirm}
      </ConfirmDelete>
      <Stack>
        <ErrorAlert error={step.error} title="Could not change the campaign" />
        {launched && (
          <Row justify="space-between" align="flex-end" gap="md">
            <Row gap="lg">
              {all && (
                <>
                  <Fact label="Phish-prone">
                    {all.delivered > 0 ? percentOf(all.phish_prone_percent) : '—'}
                  </Fact>
                  <Fact label="Report rate">
                    {all.delivered > 0 ? percentOf(100 * all.report_rate) : '—'}
                  </Fact>
                </>
              )}
              {f && (
                <>
                  <Fact label="Recipients">{formatNumber(f.recipients)}</Fact>
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
            {c.remedial_courses.map((r) => r.title ?? r.key).join(', ') || 'None'} (on {c.remedial_on})
          </Fact>
          <Fact label="Grace period">{c.grace_hours} hours</Fact>
          <Fact label="Sender domain">{c.sender_domain ?? 'The host of PHISH_URL'}</Fact>
          <Fact label="Launched">{c.launched_at ? <DateText value={c.launched_at} absolute /> : '—'}</Fact>
        </SimpleGrid>
      </Stack>
    </>
  );
}
