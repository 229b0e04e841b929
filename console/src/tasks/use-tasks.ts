/**
 * The task list: GET /api/tasks with the status and type chosen (pending oldest first, as a queue; decided
 * ones newest first: the API's order), a page at a time, and the count behind each status tab. Read again on
 * demand and when the window regains focus: tasks have no live feed (see task-count.ts).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, query } from '../api/client.ts';
import type { ReviewTask, TaskPage, TaskStatus, TaskTypeView } from '../api/types.ts';
import { countTasks } from './task-count.ts';

export type StatusFilter = TaskStatus | 'all';

export interface TaskFilters {
  status: StatusFilter;
  taskType?: string;
}

const PAGE_SIZE = 100;
const STATUSES: readonly TaskStatus[] = ['pending', 'approved', 'rejected'];

function listPath(filters: TaskFilters, cursor?: string): string {
  return `/api/tasks${query({ status: filters.status === 'all' ? undefined : filters.status, taskType: filters.taskType, limit: PAGE_SIZE, cursor })}`;
}

export function useTasks(filters: TaskFilters) {
  const [items, setItems] = useState<ReviewTask[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [counts, setCounts] = useState<Record<TaskStatus, number> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const path = listPath(filters);
  const latest = useRef(path);
  latest.current = path;

  const refresh = useCallback(async () => {
    const requested = latest.current;
    const taskType = filters.taskType;
    try {
      const [page, ...totals] = await Promise.all([api<TaskPage>('GET', requested), ...STATUSES.map((s) => countTasks(s, taskType))]);
      if (requested !== latest.current) return;
      setItems(page.items);
      setNextCursor(page.nextCursor);
      setCounts({ pending: totals[0] ?? 0, approved: totals[1] ?? 0, rejected: totals[2] ?? 0 });
      setError(null);
    } catch (problem) {
      setError(problem);
    }
  }, [filters.taskType]);

  const loadMore = useCallback(async () => {
    if (!nextCursor) return;
    const requested = latest.current;
    try {
      const page = await api<TaskPage>('GET', listPath(filters, nextCursor));
      if (requested !== latest.current) return;
      setItems((shown) => [...(shown ?? []), ...page.items]);
      setNextCursor(page.nextCursor);
    } catch (problem) {
      setError(problem);
    }
  }, [filters, nextCursor]);

  useEffect(() => {
    void refresh();
  }, [path, refresh]);

  useEffect(() => {
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refresh]);

  return { items, nextCursor, counts, error, refresh, loadMore };
}

/** The tenant's task types (GET /api/task-types): names for the filter, schemas for the payload form. */
export function useTaskTypes(): { types: TaskTypeView[] | null; error: unknown } {
  const [types, setTypes] = useState<TaskTypeView[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let cancelled = false;
    api<{ items: TaskTypeView[] }>('GET', '/api/task-types').then((answer) => { if (!cancelled) setTypes(answer.items); }, (problem: unknown) => { if (!cancelled) setError(problem); });
    return () => {
      cancelled = true;
    };
  }, []);
  return { types, error };
}
