// How campaign figures read: the API's numbers as they are, only formatted.
import { formatNumber } from '../../components/format';

/** A rate from the API (0–1) as "42%", or "—" when there is none yet. */
export function percentText(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  return `${Math.round(rate * 1000) / 10}%`;
}

/** A score in whole percent ("85%"), or "—". */
export function scoreText(score: number | null | undefined): string {
  return score === null || score === undefined ? '—' : `${formatNumber(score)}%`;
}

/** [7, 3, 1] → "7, 3 and 1 days before the due date" */
export function remindersText(days: number[]): string {
  if (days.length === 0) return 'No reminders';
  const sorted = [...days].sort((a, b) => b - a).map(formatNumber);
  const list = sorted.length === 1 ? sorted[0] : `${sorted.slice(0, -1).join(', ')} and ${sorted.at(-1)}`;
  return `${list} ${days.length === 1 && days[0] === 1 ? 'day' : 'days'} before the due date`;
}
