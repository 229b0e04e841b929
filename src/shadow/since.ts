/** `--since` for shadow reports: a look-back (`90m`, `24h`, `7d`, `2w`) or an ISO 8601 date or date-time. */
import { VettedError } from '../errors.ts';

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const DURATION = /^(\d{1,6})([mhdw])$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
/**
 * The longest look-back: 999999w would start before year 1, which PostgreSQL refuses (a 500 from the
 * summary route, found by the API fuzz). No shadow report is that old.
 */
export const MAX_LOOKBACK_MS = 20 * 365 * 86_400_000;

/**
 * The instant `text` means, relative to `now` for a look-back.
 * @throws VettedError INVALID_REQUEST (field `since`) for anything else.
 */
export function parseSince(text: string, now: Date, field = 'since'): Date {
  const trimmed = text.trim();
  const duration = DURATION.exec(trimmed);
  const ms = duration ? Number(duration[1]) * (UNIT_MS[duration[2] ?? 'h'] ?? 0) : 0;
  if (duration && ms > MAX_LOOKBACK_MS) throw new VettedError('INVALID_REQUEST', `${field} "${text}" reaches back more than 20 years`, { field });
  if (duration) return new Date(now.getTime() - ms);
  const at = ISO_DATE.test(trimmed) ? new Date(trimmed) : undefined;
  if (at && !Number.isNaN(at.getTime())) return at;
  throw new VettedError('INVALID_REQUEST', `${field} "${text}" must be a look-back like 1h, 24h or 7d, or a date like 2026-01-31 or 2026-01-31T12:00:00Z`, { field });
}

/** A named look-back window (`24h`). */
export interface LookBack {
  name: string;
  ms: number;
}

/** The windows GET /api/shadow/summary reports when the caller names none. */
export const DEFAULT_WINDOWS: readonly LookBack[] = [
  { name: '1h', ms: 3_600_000 },
  { name: '24h', ms: 86_400_000 },
  { name: '7d', ms: 7 * 86_400_000 },
];

/** At most this many windows per summary request: each one is two grouped queries. */
export const MAX_WINDOWS = 6;

/**
 * `1h,24h,7d` → the windows, in the order given.
 * @throws VettedError INVALID_REQUEST (field `windows`) for an unknown unit, a zero length or too many windows.
 */
export function parseWindows(text: string, field = 'windows'): LookBack[] {
  const names = text.split(',').map((part) => part.trim()).filter(Boolean);
  const windows = names.map((name) => {
    const match = DURATION.exec(name);
    const ms = match ? Number(match[1]) * (UNIT_MS[match[2] ?? 'h'] ?? 0) : 0;
    if (ms <= 0) throw new VettedError('INVALID_REQUEST', `${field}: "${name}" must be a look-back like 1h, 24h or 7d`, { field });
    if (ms > MAX_LOOKBACK_MS) throw new VettedError('INVALID_REQUEST', `${field}: "${name}" reaches back more than 20 years`, { field });
    return { name, ms };
  });
  if (windows.length === 0 || windows.length > MAX_WINDOWS) {
    throw new VettedError('INVALID_REQUEST', `${field}: give 1 to ${MAX_WINDOWS} look-backs, comma-separated (1h,24h,7d)`, { field });
  }
  return windows;
}
