/**
 * Review tasks: what agents and apps escalate, by status (pending oldest first, as a queue) and task
 * type, each with its confidence × impact, submitter and age. j/k move, Enter opens, as in the review queue.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ReviewTask, TaskStatus } from '../api/types.ts';
import { navigate } from '../router.ts';
import { ageOf, durationText, labelOf } from '../ui/format.ts';
import { KeysDialog, TASK_SHORTCUTS, useKeys } from '../ui/keys.tsx';
import { Link } from '../ui/link.tsx';
import { ProblemBanner } from '../ui/problem-banner.tsx';
import { confidenceBadge, impactBadge, statusText } from './task-labels.ts';
import { useTaskTypes, useTasks, type StatusFilter } from './use-tasks.ts';

const TABS: readonly StatusFilter[] = ['pending', 'approved', 'rejected', 'all'];

const EMPTY: Record<StatusFilter, string> = {
  pending: 'Nothing waiting: escalated tasks appear here, oldest first.',
  approved: 'No approved tasks yet.',
  rejected: 'No rejected tasks yet.',
  all: 'No tasks yet: an app or agent submits them with POST /api/tasks or the MCP tool submit_task.',
};

export function TasksPage() {
  const [status, setStatus] = useState<StatusFilter>('pending');
  const [taskType, setTaskType] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState(0);
  const [showKeys, setShowKeys] = useState(false);
  const filters = useMemo(() => ({ status, taskType }), [status, taskType]);
  const { items, nextCursor, counts, error, refresh, loadMore } = useTasks(filters);
  const { types } = useTaskTypes();
  const typeId = useId();
  const shown = items ?? [];
  const current = shown[Math.min(selected, shown.length - 1)];
  const oldestPending = status === 'pending' ? shown[0] : undefined;

  const rows = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    rows.current?.querySelector<HTMLElement>('tr[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  useKeys({
    j: () => setSelected((s) => Math.min(s + 1, Math.max(0, shown.length - 1))),
    k: () => setSelected((s) => Math.max(0, s - 1)),
    Enter: () => { if (current) navigate({ page: 'task', taskId: current.id }); },
    '?': () => setShowKeys((v) => !v),
  });

  const choose = (next: StatusFilter) => {
    setStatus(next);
    setSelected(0);
  };

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Review tasks</h1>
          <p className="muted">
            What agents and apps escalate for a person to approve or reject.
            {oldestPending ? ` Oldest first; the oldest has waited ${waitText(oldestPending.submittedAt)}.` : ''}{' '}
            <button type="button" className="button-link" onClick={() => setShowKeys(true)}>Keyboard: <kbd>j</kbd> <kbd>k</kbd> <kbd>Enter</kbd> · <kbd>?</kbd></button>
          </p>
        </div>
        <button type="button" className="button-secondary" onClick={() => void refresh()}>Refresh</button>
      </div>

      <div className="filter-tabs" role="group" aria-label="Status">
        {TABS.map((tab) => (
          <button key={tab} type="button" aria-pressed={status === tab} onClick={() => choose(tab)}>
            {tab === 'all' ? 'All' : statusText(tab)}
            {tab !== 'all' ? <span className="count" data-testid={`tasks-${tab}`}>{counts?.[tab] ?? 0}</span> : null}
          </button>
        ))}
      </div>

      <form className="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={typeId}>Task type</label>
          <select id={typeId} value={taskType ?? ''} onChange={(e) => { setTaskType(e.target.value || undefined); setSelected(0); }}>
            <option value="">All task types</option>
            {(types ?? []).map((t) => <option key={t.name} value={t.name}>{t.name}</option>)}
          </select>
        </div>
      </form>

      <ProblemBanner error={error} />

      {items === null ? (error ? null : <p className="muted">Loading tasks…</p>) : shown.length === 0 ? (
        <div className="empty card"><h2>{status === 'pending' ? 'Nothing waiting' : 'None'}</h2><p className="muted">{EMPTY[status]}</p></div>
      ) : (
        <div className="table-wrap card" role="region" aria-label="Tasks, scrollable" tabIndex={0}>
          <table className="queue-table task-table" aria-label={status === 'all' ? 'Tasks' : `${statusText(status)} tasks`} aria-describedby="tasks-help">
            <thead>
              <tr><th scope="col">Task</th><th scope="col">Confidence × impact</th><th scope="col">Submitter</th><th scope="col">{status === 'pending' ? 'Waiting' : 'Submitted'}</th><th scope="col">Status</th></tr>
            </thead>
            <tbody ref={rows}>
              {shown.map((task, index) => (
                <TaskRow key={task.id} task={task} selected={task === current} onSelect={() => setSelected(index)} />
              ))}
            </tbody>
          </table>
          <p id="tasks-help" className="sr-only">Use j and k to move, Enter to open the selected task.</p>
        </div>
      )}
      {nextCursor ? <div><button type="button" className="button-secondary" onClick={() => void loadMore()}>Show more</button></div> : null}
      <KeysDialog open={showKeys} onClose={() => setShowKeys(false)} shortcuts={TASK_SHORTCUTS} />
    </>
  );
}

function TaskRow({ task, selected, onSelect }: { task: ReviewTask; selected: boolean; onSelect: () => void }) {
  return (
    <tr aria-selected={selected} className={selected ? 'selected' : undefined} onClick={onSelect} data-task-id={task.id}>
      <td>
        <Link to={{ page: 'task', taskId: task.id }} className="row-link">{task.taskType}</Link>
        <div className="muted small clamp">{task.whyEscalated}</div>
      </td>
      <td>
        <div className="badge-stack">
          <span className={confidenceBadge(task.confidence)}>{labelOf(task.confidence)} confidence</span>
          <span className={impactBadge(task.impact)}>{labelOf(task.impact)} impact</span>
        </div>
      </td>
      <td>{task.submitter.name}<div className="muted small">{task.submitter.role}</div></td>
      <td><time dateTime={task.submittedAt}>{ageOf(task.submittedAt)}</time></td>
      <td><StatusCell status={task.status} task={task} /></td>
    </tr>
  );
}

function StatusCell({ status, task }: { status: TaskStatus; task: ReviewTask }) {
  if (!task.review) return <span className={`tag status-${status}`}>{statusText(status)}</span>;
  return (
    <>
      <span className={`tag status-${status}`}>{statusText(status)}</span>
      <div className="muted small">by {task.review.operator.name}, {ageOf(task.review.reviewedAt)} ago</div>
    </>
  );
}

function waitText(submittedAt: string): string {
  const ms = Math.max(0, Date.now() - Date.parse(submittedAt));
  return ms < 60_000 ? 'under a minute' : durationText(ms);
}
