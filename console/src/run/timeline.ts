/**
 * A run's timeline from its events: created → stages → parked → decided → executed, each step with the time
 * since the one before it (and a stage's own duration where the worker measured it).
 */
import type { RunEvent } from '../api/types.ts';

export interface TimelineEntry {
  id: string;
  type: string;
  title: string;
  actor: string;
  at: string;
  /** Time since the previous event. */
  sincePreviousMs: number | null;
  /** A stage's own duration, from its stage.completed event. */
  durationMs: number | null;
  reviewId: string | null;
  detail: string | null;
}

function titleOf(event: RunEvent): string {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case 'run.created': return 'Created';
    case 'stage.completed': return `${String(data.stage ?? 'stage')} done`;
    case 'stage.retrying': return `${String(data.stage ?? 'stage')} retrying`;
    case 'review.created': return 'Parked for a person';
    case 'review.decided': return `Decided: ${String(data.action ?? '')}`;
    case 'review.claimed': return 'Claimed';
    case 'review.released': return 'Claim released';
    case 'review.re_asked': return 'Asked again';
    case 'run.executing': return 'Executing';
    case 'run.completed': return 'Completed';
    default: return event.type.replace(/^run\./, '').replace(/[._]/g, ' ');
  }
}

function detailOf(event: RunEvent): string | null {
  const data = event.data as Record<string, unknown>;
  if (event.type === 'review.created') return [data.reason, data.checkpoint].filter(Boolean).join(' · ') || null;
  if (event.type === 'review.decided') return data.route ? `→ ${String(data.route)}` : null;
  if (typeof data.reason === 'string') return data.reason;
  if (typeof data.error === 'string') return data.error;
  return null;
}

export function timelineOf(events: readonly RunEvent[]): TimelineEntry[] {
  let previous: number | null = null;
  return events.map((event) => {
    const at = Date.parse(event.at);
    const data = event.data as Record<string, unknown>;
    const entry: TimelineEntry = {
      id: event.id,
      type: event.type,
      title: titleOf(event),
      actor: event.actor,
      at: event.at,
      sincePreviousMs: previous === null ? null : at - previous,
      durationMs: typeof data.durationMs === 'number' ? data.durationMs : null,
      reviewId: typeof data.reviewId === 'string' ? data.reviewId : null,
      detail: detailOf(event),
    };
    previous = at;
    return entry;
  });
}
