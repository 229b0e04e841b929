import { useState } from 'react';
import type { Me } from './api/types.ts';
import { CorrectionsPage } from './corrections/corrections-page.tsx';
import { QueuePage } from './queue/queue-page.tsx';
import { ReviewPage } from './review/review-page.tsx';
import { hrefOf, useRoute, type Route } from './router.ts';
import { RunPage } from './run/run-page.tsx';
import { can, SessionContext, signOut } from './session.tsx';
import { ShadowPage } from './shadow/shadow-page.tsx';
import { SignIn } from './sign-in.tsx';
import { usePendingTaskCount } from './tasks/task-count.ts';
import { TaskDetailPage } from './tasks/task-detail-page.tsx';
import { TasksPage } from './tasks/tasks-page.tsx';
import { Link } from './ui/link.tsx';

export function App() {
  const [me, setMe] = useState<Me | null>(null);
  const route = useRoute();
  const pendingTasks = usePendingTaskCount(me !== null && can(me, 'tasks:read'), me ? hrefOf(route) : '');
  if (!me) return <SignIn onSignedIn={setMe} />;
  return (
    <SessionContext.Provider value={me}>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar">
        <div className="topbar-inner">
          <Link to={{ page: 'queue' }} className="brand"><span className="brand-mark" aria-hidden="true">V</span> Vetted <span className="brand-sub">reviewer console</span></Link>
          <nav aria-label="Main">
            <Link to={{ page: 'queue' }} ariaCurrent={route.page === 'queue' || route.page === 'review'}>Queue</Link>
            {can(me, 'tasks:read') ? (
              <Link to={{ page: 'tasks' }} ariaCurrent={route.page === 'tasks' || route.page === 'task'}>
                Tasks{pendingTasks !== null ? <span className="count nav-count" data-testid="nav-pending-tasks"><span className="sr-only">, pending: </span>{pendingTasks}</span> : null}
              </Link>
            ) : null}
            {can(me, 'reviews:read') ? <Link to={{ page: 'corrections' }} ariaCurrent={route.page === 'corrections'}>Corrections</Link> : null}
            <Link to={{ page: 'shadow' }} ariaCurrent={route.page === 'shadow'}>Shadow</Link>
          </nav>
          <div className="whoami">
            <span title={me.actor}>{me.reviewer?.name ?? me.actor}</span>
            <span className="pill">{me.role} · {me.tenantId}</span>
            <button type="button" className="button-ghost" onClick={() => { signOut(); setMe(null); }}>Sign out</button>
          </div>
        </div>
      </header>
      <main id="main" className="page" tabIndex={-1}>
        <Page route={route} />
      </main>
    </SessionContext.Provider>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'queue': return <QueuePage />;
    case 'review': return <ReviewPage key={route.reviewId} reviewId={route.reviewId} />;
    case 'run': return <RunPage key={route.runId} runId={route.runId} />;
    case 'shadow': return <ShadowPage />;
    case 'corrections': return <CorrectionsPage />;
    case 'tasks': return <TasksPage />;
    case 'task': return <TaskDetailPage key={route.taskId} taskId={route.taskId} />;
    case 'not_found':
      return (
        <section className="card">
          <h1>Nothing here</h1>
          <p>No console page at <code>{route.path}</code>. <Link to={{ page: 'queue' }}>Back to the queue</Link>.</p>
        </section>
      );
  }
}
