import { Card, Group, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { components } from '../../api/generated/admin-api';
import { formatNumber } from '../../components/format';
import { durationText } from '../phishing/results/results-format';

type Reporting = components['schemas']['ReportingOverview'];

function Figure({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <Card withBorder padding="md">
      <Stack gap={2}>
        <Text size="sm" c="dimmed" fw={500}>
          {label}
        </Text>
        <Text fz={{ base: 22, sm: 28 }} fw={700} lh={1.2}>
          {value}
        </Text>
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </Stack>
    </Card>
  );
}

const weekLabel = (ms: number) =>
  new Date(ms).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

/** Real reports per week as small bars, each with its count for screen readers. */
function Weeks({ weeks }: { weeks: Reporting['reports_per_week'] }) {
  const most = Math.max(1, ...weeks.map((w) => w.reports));
  return (
    <Group gap={4} align="flex-end" h={48} aria-label="Real reports in each of the last 8 weeks" role="img">
      {weeks.map((w) => (
        <Tooltip key={w.week_start} label={`Week of ${weekLabel(w.week_start)}: ${formatNumber(w.reports)}`}>
          <div
            style={{
              width: 14,
              height: `${Math.max(2, (48 * w.reports) / most)}px`,
              background: 'var(--mantine-color-blue-6)',
              borderRadius: 2,
            }}
          />
        </Tooltip>
      ))}
    </Group>
  );
}

/** The reporting loop on the overview: reports per week, awaiting verdict, time to verdict, accuracy. */
export function ReportingFigures({ reporting }: { reporting: Reporting }) {
  const thisWeek = reporting.reports_per_week.at(-1)?.reports ?? 0;
  return (
    <section aria-labelledby="reporting-figures">
      <Title order={2} size="h4" id="reporting-figures" mb="sm">
        Reported mail
      </Title>
      <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
        <Card withBorder padding="md">
          <Stack gap={4}>
            <Text size="sm" c="dimmed" fw={500}>
              Real reports this week
            </Text>
            <Text fz={{ base: 22, sm: 28 }} fw={700} lh={1.2}>
              {formatNumber(thisWeek)}
            </Text>
            <Weeks weeks={reporting.reports_per_week} />
          </Stack>
        </Card>
        <Figure
          label="Awaiting a verdict"
          value={formatNumber(reporting.awaiting_verdict)}
          hint="Real reports nobody has judged yet"
        />
        <Figure
          label="Median time to verdict"
          value={durationText(reporting.median_seconds_to_verdict)}
          hint="First report to an administrator’s verdict, 90 days"
        />
        <Figure
          label="Reporting accuracy"
          value={
            reporting.reporting_accuracy === null
              ? '—'
              : `${(reporting.reporting_accuracy * 100).toFixed(0)} %`
          }
          hint={`Malicious or spam, of ${formatNumber(reporting.judged)} judged in 90 days`}
        />
      </SimpleGrid>
    </section>
  );
}
