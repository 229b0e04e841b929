/**
 * How many tasks there are in a state, as the task service counts them for every channel (`total` of
 * GET /api/tasks). The nav link shows the pending count. Tasks have no live feed (they are not runs, so the
 * tenant's review feed does not carry them): the count is read again on every navigation and whenever this
 * console records a task review (tasksChanged()).
 */
import { useEffect, useState } from 'react';
import { api, query } from '../api/client.ts';
import type { TaskPage, TaskStatus } from '../api/types.ts';

const listeners = new Set<() => void>();

/** Tells every count on screen to read again (after a review was recorded here). */
export function tasksChanged(): void {
  for (const listener of listeners) listener();
}

export async function countTasks(status: TaskStatus, taskType?: string): Promise<number> {
  return (await api<TaskPage>('GET', `/api/tasks${query({ status, taskType, limit: 1 })}`)).total;
}

/** The pending count, or null until it is known (or when the key may not read tasks). */
export function usePendingTaskCount(enabled: boolean, readAgainOn: string): number | null {
  const [count, setCount] = useState<number | null>(null);
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    const bump = () => setChanges((n) => n + 1);
    listeners.add(bump);
    return () => {
      listeners.delete(bump);
    };
  }, []);
  useEffect(() => {
    if (!enabled) return undefined;
    let cancelled = false;
    // A failed count leaves the last one shown: the Tasks page itself reports the API's problem.
    countTasks('pending').then((n) => { if (!cancelled) setCount(n); }, () => undefined);
    return () => {
      cancelled = true;
    };
  }, [enabled, readAgainOn, changes]);
  return count;
}
