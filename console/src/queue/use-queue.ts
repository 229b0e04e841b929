/**
 * The pending queue, kept live: read GET /api/reviews/pending (and the per-checkpoint counts of
 * GET /api/reviews/stats, the numbers every channel shows), then follow the tenant's review feed (GET
 * /api/reviews/events) and read the queue again whenever it says something changed (a review raised, claimed,
 * decided, a parked run cancelled or expired). The list is the API's: oldest first, filtered by the server.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, query } from '../api/client.ts';
import { followEvents } from '../api/sse.ts';
import type { Page, ReviewQueueStats, ReviewSummary } from '../api/types.ts';

export interface QueueFilters {
  model?: string;
  /** Only reviews waiting at least this long. */
  minAgeSeconds?: number;
  /**
   * `me`: reviews I hold a claim on; `team`: my team's (policy.team); `unclaimed`: nobody holds them;
   * `assigned_me`: assigned to me; `unassigned`: assigned to nobody.
   */
  scope?: 'all' | 'me' | 'team' | 'unclaimed' | 'assigned_me' | 'unassigned';
  /** Also list the reviews I snoozed ("not now"), which are out of my queue by default. */
  includeSnoozed?: boolean;
}

const REFRESH_DEBOUNCE_MS = 120;

function pendingPath(filters: QueueFilters, team: string | null): string {
  return `/api/reviews/pending${query({
    limit: 200,
    model: filters.model,
    minAgeSeconds: filters.minAgeSeconds,
    assignee: filters.scope === 'me' ? 'me' : undefined,
    team: filters.scope === 'team' ? (team ?? undefined) : undefined,
    unclaimed: filters.scope === 'unclaimed' ? true : undefined,
    assignedTo: filters.scope === 'assigned_me' ? 'me' : filters.scope === 'unassigned' ? 'none' : undefined,
    includeSnoozed: filters.includeSnoozed ? true : undefined,
  })}`;
}

export function useQueue(filters: QueueFilters, team: string | null) {
  const [items, setItems] = useState<ReviewSummary[] | null>(null);
  const [stats, setStats] = useState<ReviewQueueStats | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState(false);
  const path = pendingPath(filters, team);
  const latest = useRef(path);
  latest.current = path;

  const refresh = useCallback(async () => {
    const requested = latest.current;
    try {
      const [page, counts] = await Promise.all([api<Page<ReviewSummary>>('GET', requested), api<ReviewQueueStats>('GET', '/api/reviews/stats')]);
      setStats(counts);
      if (requested === latest.current) {
        setItems(page.items);
        setError(null);
      }
    } catch (problem) {
      setError(problem);
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [path, refresh]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stream = followEvents('/api/reviews/events', () => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), REFRESH_DEBOUNCE_MS);
    }, (connected) => {
      setLive(connected);
      // Whatever happened while the stream was down, the list is read again once it is back.
      if (connected) void refresh();
    });
    return () => {
      clearTimeout(timer);
      stream.close();
    };
  }, [refresh]);

  return { items, stats, error, live, refresh };
}
