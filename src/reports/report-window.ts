/** The window a report covers: from `since` up to `until` (now), or the last `weeks` weeks before `until`. */
import { VettedError } from '../errors.ts';

/** The look-back when no `since` is given: a quarter, enough to see a trend by week. */
export const DEFAULT_REPORT_WEEKS = 12;
export const MAX_REPORT_WEEKS = 520;
const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * @param names how the caller spells the options in an error (`querystring.since`, `--since`).
 * @throws VettedError INVALID_REQUEST naming `since` when it is not before `until`.
 */
export function reportWindow(q: { since?: Date; until?: Date; weeks?: number }, now: Date, names = { since: 'since' }): { since: Date; until: Date } {
  const until = q.until ?? now;
  const since = q.since ?? new Date(until.getTime() - (q.weeks ?? DEFAULT_REPORT_WEEKS) * WEEK_MS);
  if (since.getTime() >= until.getTime()) {
    throw new VettedError('INVALID_REQUEST', `${names.since}: must be before until (the report counts decisions from since up to until)`, { field: names.since });
  }
  return { since, until };
}
