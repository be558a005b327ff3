import { Card, Grid, Group as Row, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useParams } from 'react-router';
import { api, call } from '../../../api/client';
import type { components } from '../../../api/generated/admin-api';
import { isScoped, useCurrentUser } from '../../../auth/session';
import { BackLink } from '../../../components/BackLink';
import { Loading } from '../../../components/Loading';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { PageHeader } from '../../../components/PageHeader';
import { PageSection } from '../../../components/PageSection';
import { Stat } from '../../../components/Stat';
import { StatusBadge } from '../../../components/StatusBadge';
import { baseTableProps, WIDE_ONLY } from '../../../components/table';
import { accountPath, useAccount } from '../../../layout/account-context';
import { ActivityChart } from './ActivityChart';
import { RecipientsTable } from './RecipientsTable';
import {
  countText,
  durationText,
  FAILING_RULE_TEXT,
  failedByRuleText,
  phishProneText,
  reportRateText,
  shareText,
} from './results-format';

type Summary = components['schemas']['PhishingResultsSummary'];
type Figures = components['schemas']['PhishingFigures'];
type Breakdown = components['schemas']['PhishingBreakdown'];

/** While a campaign runs its figures move: read them again this often. */
const LIVE_REFRESH_MS = 20_000;

const FUNNEL = [
  { key: 'delivered', label: 'Delivered', color: 'var(--mantine-color-blue-6)' },
  { key: 'opened', label: 'Opened', color: 'var(--mantine-color-yellow-6)' },
  { key: 'clicked', label: 'Clicked', color: 'var(--mantine-color-orange-7)' },
  { key: 'submitted', label: 'Submitted', color: 'var(--mantine-color-red-7)' },
  { key: 'reported', label: 'Reported', color: 'var(--mantine-color-teal-7)' },
] as const;

/** Delivered → opened → clicked → submitted, and reported: bars as wide as their share of the delivered. */
function Funnel({ figures }: { figures: Figures }) {
  const whole = figures.delivered;
  return (
    <figure style={{ margin: 0 }}>
      <Title order={3} size="h5" component="figcaption" mb="sm">
        Funnel{' '}
        <Text span size="sm" c="dimmed">
          (people, of {countText(whole)} delivered)
        </Text>
      </Title>
      <Stack gap={8} component="dl" m={0}>
        {FUNNEL.map((step, i) => {
          const n = figures[step.key];
          const width = whole > 0 ? Math.max(0.5, (100 * n) / whole) : 0;
          return (
            <div key={step.key} style={{ position: 'relative', marginTop: i === FUNNEL.length - 1 ? 8 : 0 }}>
              <Text component="dt" size="sm" fw={500}>
                {step.label}
              </Text>
              <dd style={{ margin: 0 }}>
                <Text span size="sm" style={{ position: 'absolute', right: 0, top: 0 }}>
                  <strong>{countText(n)}</strong>{' '}
                  <Text span c="dimmed" size="sm">
                    {step.key === 'delivered'
                      ? `of ${countText(figures.recipients)} targeted`
                      : shareText(n, whole)}
                  </Text>
                </Text>
                <div
                  aria-hidden
                  style={{
                    height: 14,
                    background: 'var(--mantine-color-gray-1)',
                    borderRadius: 4,
                    overflow: 'hidden',
                  }}
                >
                  <div
                    style={{ width: `${Math.min(100, width)}%`, height: '100%', background: step.color }}
                  />
                </div>
              </dd>
            </div>
          );
        })}
      </Stack>
    </figure>
  );
}

function BreakdownTable({
  title,
  rows,
  label,
  byRule,
}: {
  title: string;
  rows: Breakdown[];
  label: string;
  /** The campaign fails people by a rule other than phish-prone's: show that share too. */
  byRule: boolean;
}) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      <DataTable<Breakdown>
        {...baseTableProps}
        minHeight={rows.length ? undefined : 120}
        aria-label={title}
        idAccessor="key"
        records={rows}
        noRecordsText="Nothing yet"
        columns={[
          { accessor: 'name', title: label },
          {
            accessor: 'delivered',
            title: 'Delivered',
            textAlign: 'right',
            render: (r) => countText(r.delivered),
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'opened',
            title: 'Opened',
            textAlign: 'right',
            render: (r) => shareText(r.opened, r.delivered),
            visibleMediaQuery: WIDE_ONLY,
          },
          { accessor: 'clicked', title: 'Clicked', textAlign: 'right', render: (r) => countText(r.clicked) },
          {
            accessor: 'submitted',
            title: 'Submitted',
            textAlign: 'right',
            render: (r) => countText(r.submitted),
            visibleMediaQuery: WIDE_ONLY,
          },
          {
            accessor: 'phish_prone_percent',
            title: 'Phish-prone',
            textAlign: 'right',
            render: (r) => phishProneText(r),
          },
          ...(byRule
            ? [
                {
                  accessor: 'failed_by_rule_percent',
                  title: 'Failed by rule',
                  textAlign: 'right' as const,
                  render: (r: Breakdown) => failedByRuleText(r),
                  visibleMediaQuery: WIDE_ONLY,
                },
              ]
            : []),
          {
            accessor: 'report_rate',
            title: 'Reported',
            textAlign: 'right',
            render: (r) => reportRateText(r),
          },
        ]}
      />
    </Stack>
  );
}

/** /a/:accountId/phishing/campaigns/:campaignId/results — a phishing campaign's results. */
export function CampaignResultsPage() {
  const account = useAccount();
  const user = useCurrentUser();
  const campaignId = Number(useParams().campaignId);
  const summary = useQuery({
    queryKey: ['phishing-results', account.id, campaignId],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/phishing/campaigns/{campaignId}/results', {
          params: { path: { accountId: account.id, campaignId } },
        }),
      ),
    enabled: Number.isInteger(campaignId),
    refetchInterval: (query) => (query.state.data?.campaign.status === 'running' ? LIVE_REFRESH_MS : false),
  });
  const back = (
    <BackLink to={accountPath(account.id, 'phishing', 'campaigns', campaignId)}>Phishing campaign</BackLink>
  );
  if (summary.isPending && Number.isInteger(campaignId)) return <Loading />;
  if (!summary.data) return <NotFoundPage thing="campaign" back={back} error={summary.error} />;
  const s: Summary = summary.data;
  const f = s.all;
  // Phish-prone is the same for every campaign (clicked or submitted); a campaign that fails
  // people only on submitting the form has a second figure of its own, shown beside it.
  const byRule = s.campaign.remedial_on !== 'click';

  return (
    <>
      <PageHeader
        title={`Results: ${s.campaign.name}`}
        above={back}
        description={
          <Row gap="xs" component="span" align="center">
            <span role="status">
              <StatusBadge status={s.campaign.status} size="lg" />
            </span>
            <Text component="span" size="sm" c="dimmed">
              Phishing simulation · people only: scanners and previews are not counted
              {f.automated_events > 0 && ` (${countText(f.automated_events)} automated events set aside)`}
            </Text>
          </Row>
        }
      />
      <Stack gap="xl">
        <PageSection title="Figures" gap="md">
          {isScoped(user) && (
            <Text size="sm" c="dimmed">
              These figures are the whole campaign’s, people outside your groups included; the list of people
              below shows your groups’ only.
            </Text>
          )}
          <SimpleGrid cols={{ base: 2, sm: 3, lg: byRule ? 8 : 7 }} component="dl" m={0} spacing="sm">
            <Stat
              label="Phish-prone"
              value={phishProneText(f)}
              hint={`${countText(f.phished)} clicked or submitted`}
            />
            {byRule && (
              <Stat
                label="Failed by this campaign’s rule"
                value={failedByRuleText(f)}
                hint={`${countText(f.failed_by_rule)} by ${FAILING_RULE_TEXT[s.campaign.remedial_on]}`}
              />
            )}
            <Stat
              label="Report rate"
              value={reportRateText(f)}
              hint={
                f.reported_after_click > 0
                  ? `${countText(f.reported)} reported, ${countText(f.reported_after_click)} after clicking`
                  : `${countText(f.reported)} reported`
              }
            />
            <Stat
              label="Miss rate"
              value={f.delivered > 0 ? `${(f.miss_rate * 100).toFixed(1)} %` : '—'}
              hint={`${countText(f.missed)} neither clicked nor reported`}
            />
            <Stat
              label="Median time to click"
              value={durationText(f.median_seconds_to_click)}
              hint="From delivery"
            />
            <Stat
              label="Median time to report"
              value={durationText(f.median_seconds_to_report)}
              hint="From delivery"
            />
            <Stat
              label="Delivered"
              value={countText(f.delivered)}
              hint={f.failed > 0 ? `${countText(f.failed)} not delivered` : `of ${countText(f.recipients)}`}
            />
            <Stat label="Training assigned" value={countText(f.training_assigned)} hint="Remedial courses" />
          </SimpleGrid>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Card withBorder padding="lg" h="100%">
                <Funnel figures={f} />
              </Card>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Card withBorder padding="lg" h="100%">
                <ActivityChart activity={s.activity} />
              </Card>
            </Grid.Col>
          </Grid>
        </PageSection>
        <PageSection title="Breakdown" gap="md">
          <BreakdownTable title="By group" label="Group" rows={s.groups} byRule={byRule} />
          <BreakdownTable title="By template" label="Template" rows={s.templates} byRule={byRule} />
        </PageSection>
        <RecipientsTable accountId={account.id} summary={s} />
      </Stack>
    </>
  );
}
