/**
 * Client-side routes under /console (the API answers index.html for every one, api/console.ts). A route is a
 * parsed path; navigate() pushes it, and the back button works. No library: seven routes.
 */
import { useEffect, useState } from 'react';

export type Route =
  | { page: 'queue' }
  | { page: 'review'; reviewId: string }
  | { page: 'run'; runId: string }
  | { page: 'shadow' }
  | { page: 'corrections' }
  | { page: 'tasks' }
  | { page: 'task'; taskId: string }
  | { page: 'not_found'; path: string };

const BASE = '/console';
const ID = '([0-9a-fA-F-]{36})';

export function parseRoute(pathname: string): Route {
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) || '/' : pathname;
  let match: RegExpExecArray | null;
  if (path === '/' || path === '') return { page: 'queue' };
  if ((match = new RegExp(`^/reviews/${ID}/?$`).exec(path))) return { page: 'review', reviewId: match[1] as string };
  if ((match = new RegExp(`^/runs/${ID}/?$`).exec(path))) return { page: 'run', runId: match[1] as string };
  if (path === '/shadow' || path === '/shadow/') return { page: 'shadow' };
  if (path === '/corrections' || path === '/corrections/') return { page: 'corrections' };
  if (path === '/tasks' || path === '/tasks/') return { page: 'tasks' };
  // The address notifications link to (src/notifications/message.ts): <VETTED_CONSOLE_URL>/tasks/<id>.
  if ((match = new RegExp(`^/tasks/${ID}/?$`).exec(path))) return { page: 'task', taskId: match[1] as string };
  return { page: 'not_found', path };
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'queue': return `${BASE}/`;
    case 'review': return `${BASE}/reviews/${route.reviewId}`;
    case 'run': return `${BASE}/runs/${route.runId}`;
    case 'shadow': return `${BASE}/shadow`;
    case 'corrections': return `${BASE}/corrections`;
    case 'tasks': return `${BASE}/tasks`;
    case 'task': return `${BASE}/tasks/${route.taskId}`;
    case 'not_found': return `${BASE}${route.path}`;
  }
}

const listeners = new Set<() => void>();

export function navigate(route: Route): void {
  window.history.pushState(null, '', hrefOf(route));
  for (const listener of listeners) listener();
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.pathname));
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return route;
}
