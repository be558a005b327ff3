import { Group as Row, Text, Title } from '@mantine/core';
import type { components } from '../../../api/generated/admin-api';

type Activity = components['schemas']['PhishingResultsSummary']['activity'];

const SERIES = [
  { key: 'opened', label: 'Opened', color: 'var(--mantine-color-yellow-6)' },
  { key: 'clicked', label: 'Clicked', color: 'var(--mantine-color-orange-7)' },
  { key: 'submitted', label: 'Submitted', color: 'var(--mantine-color-red-7)' },
  { key: 'reported', label: 'Reported', color: 'var(--mantine-color-teal-7)' },
] as const;

const W = 720;
const H = 200;
const PAD = { left: 0, right: 0, top: 8, bottom: 8 };

const hourFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: 'numeric' });
const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** Up to this many hours (or days), each is a group of bars; past it, lines. */
const BARS_UP_TO = 12;

/**
 * People reaching each step per hour (or day): a plain SVG, scaled to its box, with a text
 * summary for screen readers. Hours without activity are zeros between the rows the API gives.
 * A few buckets are grouped bars (a campaign whose activity fell in one hour is one visible group,
 * where a one-point line would draw nothing); many are lines.
 */
export function ActivityChart({ activity }: { activity: Activity }) {
  const step = activity.bucket === 'day' ? 86_400_000 : 3_600_000;
  const given = new Map(activity.rows.map((r) => [new Date(r.at).getTime(), r]));
  const first = activity.rows[0] ? new Date(activity.rows[0].at).getTime() : 0;
  const last = activity.rows.at(-1) ? new Date(activity.rows.at(-1)?.at ?? 0).getTime() : 0;
  const points: { at: number; values: Record<string, number> }[] = [];
  for (let at = first; activity.rows.length > 0 && at <= last && points.length < 2000; at += step) {
    const r = given.get(at);
    points.push({
      at,
      values: Object.fromEntries(SERIES.map((s) => [s.key, r ? r[s.key] : 0])),
    });
  }
  const max = Math.max(1, ...points.flatMap((p) => Object.values(p.values)));
  const bars = points.length <= BARS_UP_TO;
  const x = (i: number) =>
    PAD.left + (points.length <= 1 ? 0 : (i / (points.length - 1)) * (W - PAD.left - PAD.right));
  const y = (v: number) => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  // Bars: each bucket a slot of the width, its series side by side in the middle 70 % of it.
  const slot = (W - PAD.left - PAD.right) / Math.max(1, points.length);
  const barWidth = Math.min(48, (slot * 0.7) / SERIES.length);
  const format = activity.bucket === 'day' ? dayFormat : hourFormat;
  const totals = Object.fromEntries(
    SERIES.map((s) => [s.key, points.reduce((sum, p) => sum + (p.values[s.key] ?? 0), 0)]),
  );
  const ticks = points.length > 1 ? [0, Math.floor((points.length - 1) / 2), points.length - 1] : [0];

  return (
    <figure style={{ margin: 0 }}>
      <Row justify="space-between" align="baseline" mb="xs">
        <Title order={3} size="h5" component="figcaption">
          Activity over time{' '}
          <Text span size="sm" c="dimmed">
            (people per {activity.bucket})
          </Text>
        </Title>
        <Row gap="md" aria-hidden>
          {SERIES.map((s) => (
            <Row key={s.key} gap={4} wrap="nowrap">
              <span
                style={{
                  width: bars ? 10 : 12,
                  height: bars ? 10 : 3,
                  background: s.color,
                  display: 'inline-block',
                }}
              />
              <Text size="xs">{s.label}</Text>
            </Row>
          ))}
        </Row>
      </Row>
      {points.length === 0 ? (
        <Text c="dimmed" size="sm">
          No activity yet.
        </Text>
      ) : (
        <div style={{ position: 'relative', paddingLeft: 28 }}>
          <Text
            size="xs"
            c="dimmed"
            aria-hidden
            style={{ position: 'absolute', left: 0, top: 0, width: 24, textAlign: 'right' }}
          >
            {max}
          </Text>
          <Text
            size="xs"
            c="dimmed"
            aria-hidden
            style={{ position: 'absolute', left: 0, top: H - 16, width: 24, textAlign: 'right' }}
          >
            0
          </Text>
          <svg
            viewBox={`0 0 ${W} ${H}`}
            preserveAspectRatio="none"
            width="100%"
            height={H}
            role="img"
            aria-label={`From ${format.format(first)} to ${format.format(last)}: ${SERIES.map((s) => `${totals[s.key]} ${s.label.toLowerCase()}`).join(', ')}.`}
            style={{ display: 'block' }}
          >
            {[0, 0.5, 1].map((f) => (
              <line
                key={f}
                x1={0}
                x2={W}
                y1={y(max * f)}
                y2={y(max * f)}
                stroke="var(--mantine-color-gray-3)"
                strokeDasharray={f === 0 ? undefined : '3 3'}
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {bars
              ? points.flatMap((p, i) =>
                  SERIES.map((s, j) => {
                    const v = p.values[s.key] ?? 0;
                    const left = PAD.left + i * slot + (slot - barWidth * SERIES.length) / 2 + j * barWidth;
                    return (
                      <rect
                        key={`${p.at}-${s.key}`}
                        data-series={s.key}
                        x={left + barWidth * 0.1}
                        width={barWidth * 0.8}
                        y={y(v)}
                        height={Math.max(0, y(0) - y(v))}
                        fill={s.color}
                      />
                    );
                  }),
                )
              : SERIES.map((s) => (
                  <polyline
                    key={s.key}
                    fill="none"
                    stroke={s.color}
                    strokeWidth={2}
                    strokeLinejoin="round"
                    vectorEffect="non-scaling-stroke"
                    points={points
                      .map((p, i) => `${x(i).toFixed(1)},${y(p.values[s.key] ?? 0).toFixed(1)}`)
                      .join(' ')}
                  />
                ))}
          </svg>
          <Row justify={bars && points.length === 1 ? 'center' : 'space-between'} mt={4} aria-hidden>
            {ticks.map((i) => (
              <Text key={i} size="xs" c="dimmed">
                {format.format((points[i] as { at: number }).at)}
              </Text>
            ))}
          </Row>
        </div>
      )}
    </figure>
  );
}
