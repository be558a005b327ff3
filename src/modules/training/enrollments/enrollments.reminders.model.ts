/**
 * Which reminder round of a training is due, by one rule for a campaign's due date and for an
 * enrollment's own (remedial training): a round (days before the due date) comes at due − days;
 * of several that have come, only the latest is sent (the scheduler was down: one reminder, not
 * a pile); one whose moment was before the start (launch, or assignment) is recorded, not sent;
 * none is sent once the due date has passed.
 */

export const DAY_MS = 86_400_000;

/** The reminder days of a campaign (a JSON array of whole days), whatever is stored. */
export function reminderDays(json: string): number[] {
  try {
    const days = JSON.parse(json);
    return Array.isArray(days) ? days.filter((d) => Number.isInteger(d) && d > 0) : [];
  } catch {
    return [];
  }
}

/**
 * The rounds of `days` that have come at `now` for a training due at `dueAt` that started at
 * `startedAt`, leaving out those already queued (`queued` says whether a round was).
 */
export function roundsDue(
  days: readonly number[],
  dates: { dueAt: number; startedAt: number; now: number },
  queued: (days: number) => boolean,
): { days: number; skip: boolean }[] {
  const { dueAt, startedAt, now } = dates;
  const come = days.filter((d) => dueAt - d * DAY_MS <= now).sort((a, b) => a - b);
  const latest = come[0];
  return come
    .filter((d) => !queued(d))
    .map((d) => ({ days: d, skip: startedAt >= dueAt - d * DAY_MS || d !== latest || now >= dueAt }));
}
