import { formatNumber } from '../../../components/format';

/** "17.2 %" from a percent (0–100). */
export function percentOf(value: number): string {
  return `${value.toLocaleString(undefined, { maximumFractionDigits: 1 })} %`;
}

/**
 * Phish-prone as every page shows it (the results page, its breakdowns, the campaign page):
 * the server's percent (people who clicked or submitted ÷ people delivered), or "—" while
 * nothing has been delivered, when nobody can have fallen for anything yet.
 */
export function phishProneText(figures: { delivered: number; phish_prone_percent: number }): string {
  return figures.delivered > 0 ? percentOf(figures.phish_prone_percent) : '—';
}

/** "Failed by this campaign's rule" (failed_by_rule ÷ delivered), or "—" while nothing has been delivered. */
export function failedByRuleText(figures: { delivered: number; failed_by_rule_percent: number }): string {
  return figures.delivered > 0 ? percentOf(figures.failed_by_rule_percent) : '—';
}

/** The report rate (reported ÷ delivered, 0 to 1) as a percent, or "—" while nothing has been delivered. */
export function reportRateText(figures: { delivered: number; report_rate: number }): string {
  return figures.delivered > 0 ? percentOf(100 * figures.report_rate) : '—';
}

/** The campaign's own failing rule in words, for "failed by this campaign's rule". */
export const FAILING_RULE_TEXT = { click: 'clicking the link', submit: 'submitting the form' } as const;

/** A share of a whole as a percent text; "—" when the whole is 0. */
export function shareText(part: number, whole: number): string {
  return whole > 0 ? percentOf((100 * part) / whole) : '—';
}

/** Seconds as people read a delay: "45 s", "7 min", "3 h 20 min", "2 d 4 h"; "—" for none. */
export function durationText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

export const countText = (n: number) => formatNumber(n);

/** What each step of a recipient means, for the filter and the badge. */
export const RECIPIENT_STATUS_LABELS: Record<string, string> = {
  scheduled: 'Scheduled',
  sent: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked',
  submitted: 'Submitted',
  failed: 'Not delivered',
  reported: 'Reported',
};

export const RECIPIENT_STATUS_COLORS: Record<string, string> = {
  scheduled: 'gray',
  sent: 'blue',
  opened: 'yellow',
  clicked: 'orange',
  submitted: 'red',
  failed: 'dark',
  reported: 'teal',
};

export const EVENT_LABELS: Record<string, string> = {
  sent: 'Delivered',
  delivery_failed: 'Delivery failed',
  opened: 'Opened',
  clicked: 'Clicked the link',
  submitted: 'Submitted the form',
  interaction: 'Pressed a button on the page',
  reported: 'Reported',
  training_assigned: 'Training assigned',
};
