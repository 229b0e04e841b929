/**
 * One review task (`/console/tasks/<id>`, where notifications link): its type, why it was escalated and what is
 * missing, the payload (readable, or as a read-only form from the type's schema), confidence × impact and the
 * submitter; approve or reject with notes while it is pending. After a decision the page stays, read-only, under
 * a confirmation banner; a decided task shows its decision, notes, operator and time.
 */
import { useCallback, useEffect, useState } from 'react';
import { api, ApiProblem } from '../api/client.ts';
import type { ReviewTask, TaskPage, TaskTypeView } from '../api/types.ts';
import { can, useMe } from '../session.tsx';
import { ageOf, labelOf, timeText } from '../ui/format.ts';
import { Link } from '../ui/link.tsx';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { PayloadPanel } from './payload-panel.tsx';
import { RoutingGrid } from './routing-grid.tsx';
import { tasksChanged } from './task-count.ts';
import { TaskDecisionPanel, TaskReviewPanel, type TaskDecision } from './task-decision.tsx';
import { confidenceBadge, impactBadge, personText, statusText } from './task-labels.ts';
import { useTaskTypes } from './use-tasks.ts';

interface Outcome {
  text: string;
  /** The oldest task still waiting, to go on with. */
  next: ReviewTask | null;
}

export function TaskDetailPage({ taskId }: { taskId: string }) {
  const me = useMe();
  const [task, setTask] = useState<ReviewTask | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { types } = useTaskTypes();

  const load = useCallback(async () => {
    try {
      setTask(await api<ReviewTask>('GET', `/api/tasks/${taskId}`));
      setError(null);
    } catch (problem) {
      setError(problem);
    }
  }, [taskId]);
  useEffect(() => {
    void load();
  }, [load]);

  async function decide(decision: TaskDecision, notes: string) {
    setBusy(true);
    setActionError(null);
    try {
      const reviewed = await api<ReviewTask>('POST', `/api/tasks/${taskId}/review`, { decision, notes });
      setTask(reviewed);
      tasksChanged();
      const waiting = await api<TaskPage>('GET', '/api/tasks?status=pending&limit=1').catch(() => null);
      setOutcome({ text: decision === 'approved' ? 'Approved. Thank you: the decision and your notes are recorded.' : 'Rejected. Thank you: the decision and your notes are recorded.', next: waiting?.items[0] ?? null });
    } catch (problem) {
      setActionError(problem);
      // Decided meanwhile by someone else: show the task as it now stands, beside the API's 409.
      if (problem instanceof ApiProblem && problem.problem.code === 'TASK_ALREADY_REVIEWED') void load();
    } finally {
      setBusy(false);
    }
  }

  if (error && !task) return <><Breadcrumb /><ProblemBanner error={error} /></>;
  if (!task) return <><Breadcrumb /><p className="muted">Loading the task…</p></>;
  const type: TaskTypeView | undefined = types?.find((t) => t.name === task.taskType);
  const notesProblem = actionError instanceof ApiProblem && actionError.problem.field === 'notes' ? actionError : null;
  const mayReview = can(me, 'tasks:review');

  return (
    <>
      <Breadcrumb taskType={task.taskType} />
      <header className="card review-head">
        <div className="review-title">
          <h1>{task.taskType}</h1>
          <div className="badges">
            <span className={`tag status-${task.status}`} data-testid="task-status">{statusText(task.status)}</span>
            <span className={confidenceBadge(task.confidence)}>{labelOf(task.confidence)} confidence</span>
            <span className={impactBadge(task.impact)}>{labelOf(task.impact)} impact</span>
          </div>
        </div>
        {type?.description ? <p className="muted">{type.description}</p> : null}
        <dl className="facts">
          <div><dt>Submitter</dt><dd>{personText(task.submitter)}</dd></div>
          <div><dt>Submitted</dt><dd><time dateTime={task.submittedAt} title={timeText(task.submittedAt)}>{ageOf(task.submittedAt)} ago</time></dd></div>
          <div><dt>Routing</dt><dd>{task.routing === 'auto_approved' ? 'Approved by policy' : 'A person decides'}</dd></div>
          <div><dt>Task</dt><dd><code title={task.id}>{task.id.slice(0, 8)}</code>{task.requestKey ? <span className="muted small"> · key {task.requestKey}</span> : null}</dd></div>
        </dl>
      </header>

      {outcome ? (
        <div className="banner banner-success" role="status" data-testid="task-confirmation">
          <div>
            <strong>{outcome.text}</strong>{' '}
            {outcome.next ? <><Link to={{ page: 'task', taskId: outcome.next.id }}>Next pending task</Link> · </> : null}
            <Link to={{ page: 'tasks' }}>Back to tasks</Link>
          </div>
        </div>
      ) : null}
      {task.status === 'pending' && !mayReview ? <div className="banner banner-info" role="status">Your key may read tasks but not review them.</div> : null}
      <ProblemBanner error={notesProblem ? null : actionError} onDismiss={() => setActionError(null)} />

      <section className="card" aria-labelledby="escalated-title">
        <h2 id="escalated-title">Why it was escalated</h2>
        <p className="lead value-text">{task.whyEscalated}</p>
        <h3>Missing information</h3>
        {task.missingInformation.length ? (
          <ul className="missing">{task.missingInformation.map((item, index) => <li key={index}>{item}</li>)}</ul>
        ) : <p className="muted">Nothing reported missing.</p>}
      </section>

      <div className="card-layout">
        <div className="card-main">
          <PayloadPanel task={task} type={type ?? null} typesLoaded={types !== null} />
        </div>
        <aside className="card-side" aria-label="Decision and routing">
          {task.status === 'pending' && mayReview && !outcome ? <TaskDecisionPanel me={me} busy={busy} notesProblem={notesProblem} onDecide={(d, n) => void decide(d, n)} /> : null}
          <TaskReviewPanel task={task} />
          <section className="card" aria-labelledby="routing-title">
            <h2 id="routing-title">Confidence × impact</h2>
            <RoutingGrid confidence={task.confidence} impact={task.impact} autoApprove={type?.autoApprove ?? null} />
          </section>
        </aside>
      </div>
    </>
  );
}

function Breadcrumb({ taskType }: { taskType?: string }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <Link to={{ page: 'tasks' }}>Tasks</Link> <span aria-hidden="true">/</span> <span>{taskType ?? 'Task'}</span>
    </nav>
  );
}
