import { CompositeChart, DonutChart } from '@mantine/charts';
import { Card, Grid, Group as Row, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { api, call } from '../../api/client';
import type { Campaign, EnrollmentStatus, Progress } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatNumber } from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageSection } from '../../components/PageSection';
import { Stat } from '../../components/Stat';
import { ENROLLMENT_COLORS, statusLabel } from '../../components/StatusBadge';
import { baseTableProps } from '../../components/table';
import { percentText, scoreText } from './campaign-format';

const STATUS_ORDER: EnrollmentStatus[] = ['completed', 'in_progress', 'not_started', 'overdue'];

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayText = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));

interface ProgressViewProps {
  accountId: number;
  campaign: Campaign;
  /** Read the figures again now and then (an active campaign). */
  live: boolean;
}

/** Counts, completion rate, average score, charts and the per-course table: the API's figures as they are. */
export function ProgressView({ accountId, campaign, live }: ProgressViewProps) {
  const progress = useQuery({
    queryKey: ['progress', accountId, campaign.id],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/campaigns/{campaignId}/progress', {
          params: { path: { accountId, campaignId: campaign.id } },
        }),
      ),
    refetchInterval: live ? 20_000 : false,
  });
  if (progress.error) return <ErrorAlert error={progress.error} title="Could not load the progress" />;
  if (!progress.data) return <Loading label="Loading the progress" />;
  const p = progress.data;
  const { counts } = p;

  return (
    <PageSection title="Progress" gap="md">
      {p.covers === 'scope' && (
        <Text size="sm" c="dimmed">
          These figures count the people of your groups only.
        </Text>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} component="dl" m={0} spacing="sm">
        <Stat label="Enrolled" value={formatNumber(counts.enrolled)} />
        <Stat
          label="Completed"
          value={`${formatNumber(counts.completed)} / ${formatNumber(counts.enrolled)}`}
          hint={`${percentText(p.completion_rate)} completion`}
        />
        <Stat label="In progress" value={formatNumber(counts.in_progress)} />
        <Stat label="Not started" value={formatNumber(counts.not_started)} />
        <Stat label="Overdue" value={formatNumber(counts.overdue)} />
        <Stat label="Average score" value={scoreText(p.average_score)} hint="Of those who took every quiz" />
      </SimpleGrid>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card withBorder padding="lg" h="100%">
            <CompletionChart progress={p} />
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card withBorder padding="lg" h="100%">
            <StatusDonut progress={p} />
          </Card>
        </Grid.Col>
      </Grid>
      <CoursesTable progress={p} />
    </PageSection>
  );
}

/** Completions per day (bars) and in total (line), from the API's per-day timeline. */
function CompletionChart({ progress }: { progress: Progress }) {
  // The timeline runs to the due date; the running total stops at today (no line into the future).
  const today = new Date().toISOString().slice(0, 10);
  let total = 0;
  const data = progress.timeline.map((day) => {
    total += day.completed;
    return {
      day: dayText(day.date),
      'Completed that day': day.completed,
      'Completed in total': day.date <= today ? total : null,
    };
  });
  const first = progress.timeline[0];
  const last = progress.timeline.at(-1);
  const summary =
    first && last
      ? `Completions from ${dayText(first.date)} to ${dayText(last.date)}: ${formatNumber(total)} in total.`
      : 'No completions yet.';

  return (
    <figure style={{ margin: 0 }}>
      <Title order={3} size="h5" component="figcaption" mb="sm">
        Completions over time
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        Per UTC day since the launch
      </Text>
      <div role="img" aria-label={summary}>
        <CompositeChart
          h={240}
          data={data}
          dataKey="day"
          series={[
            { name: 'Completed that day', color: 'indigo.3', type: 'bar' },
            { name: 'Completed in total', color: 'teal.7', type: 'line' },
          ]}
          curveType="monotone"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          withDots={data.length <= 31}
          connectNulls={false}
          maxBarWidth={28}
          yAxisProps={{ allowDecimals: false }}
          composedChartProps={{ accessibilityLayer: false }}
        />
      </div>
      <VisuallyHidden>
        <table>
          <caption>Completions per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Completed that day</th>
              <th scope="col">Completed in total</th>
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={row.day}>
                <td>{row.day}</td>
                <td>{row['Completed that day']}</td>
                <td>{row['Completed in total'] ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}

/** The enrollments by status, with the completion rate in the middle and a legend in words. */
function StatusDonut({ progress }: { progress: Progress }) {
  const data = STATUS_ORDER.map((status) => ({
    name: statusLabel(status),
    value: progress.counts[status],
    color: `${ENROLLMENT_COLORS[status]}.${status === 'not_started' ? 4 : 6}`,
  }));
  const empty = progress.counts.enrolled === 0;

  return (
    <figure style={{ margin: 0 }}>
      <Title order={3} size="h5" component="figcaption" mb="sm">
        Status of the people enrolled
      </Title>
      <Row justify="center" wrap="nowrap" gap="md">
        <div role="img" aria-label={`${percentText(progress.completion_rate)} completed`}>
          <DonutChart
            data={empty ? [{ name: 'Nobody enrolled', value: 1, color: 'gray.2' }] : data}
            size={140}
            thickness={20}
            withTooltip={!empty}
            tooltipDataSource="segment"
            chartLabel={percentText(progress.completion_rate)}
            pieChartProps={{ accessibilityLayer: false }}
          />
        </div>
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Status counts">
          {data.map((d) => (
            <Row key={d.name} gap={8} component="li" wrap="nowrap">
              <span
                aria-hidden
                style={{
                  width: 10,
                  height: 10,
                  borderRadius: 3,
                  flex: 'none',
                  background: `var(--mantine-color-${d.color.replace('.', '-')})`,
                }}
              />
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {d.name}: <strong>{formatNumber(d.value)}</strong>
              </Text>
            </Row>
          ))}
        </Stack>
      </Row>
    </figure>
  );
}

function CoursesTable({ progress }: { progress: Progress }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        By course
      </Title>
      <DataTable
        {...baseTableProps}
        minHeight={0}
        aria-label="Progress per course"
        records={progress.courses}
        idAccessor="key"
        noRecordsText="No courses"
        columns={[
          { accessor: 'title', title: 'Course' },
          {
            accessor: 'started',
            title: 'Started',
            textAlign: 'right',
            render: (c) => formatNumber(c.started),
          },
          { accessor: 'passed', title: 'Passed', textAlign: 'right', render: (c) => formatNumber(c.passed) },
          {
            accessor: 'average_score',
            title: 'Average score',
            textAlign: 'right',
            render: (c) => scoreText(c.average_score),
          },
        ]}
      />
    </Stack>
  );
}
