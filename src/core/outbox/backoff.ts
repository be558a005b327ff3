/** How long a failed delivery waits before its next attempt: the outboxes' back-off policies. */

const MAX_RETRY_DELAY_MS = 6 * 3_600_000;

/**
 * Exponential back-off (the mail worker's): the wait before attempt `attempts + 1`: `base·2^(attempts−1)`, at most 6 hours, with ±10 %
 * jitter so messages that failed together (a server briefly down) do not all return at once.
 */
export function retryDelay(attempts: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.min(MAX_RETRY_DELAY_MS, Math.round(exponential * (0.9 + 0.2 * random())));
}

/**
 * Back-off on a fixed schedule (the webhook worker's): after attempt `attempt` fails, the next
 * waits `schedule[attempt − 1]` (its last entry once past its end), with ±10 % jitter.
 */
export function scheduledDelay(
  schedule: readonly number[],
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = schedule[Math.min(attempt, schedule.length) - 1] ?? 0;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** What a claim ends with after a failed attempt: failed for good, or queued for another attempt. */
export type AfterFailure = { status: 'failed' } | { status: 'queued'; next_attempt_at: number };

/**
 * After attempt `attempts` failed at `now`: failed when it was permanent or the last attempt
 * allowed, else queued again once the back-off (`delayMs`, asked only then) has passed.
 */
export function afterFailure(
  policy: { maxAttempts: number; delayMs: (attempts: number) => number },
  attempts: number,
  now: number,
  permanent = false,
): AfterFailure {
  if (permanent || attempts >= policy.maxAttempts) return { status: 'failed' };
  return { status: 'queued', next_attempt_at: now + policy.delayMs(attempts) };
}
