/**
 * What a notification is about, read when the job runs (jobs carry ids only): a review (from its run, or, once
 * it ended, from the decision that closed it) or a task, and whether it still waits for a person.
 */
import type { NotificationJob } from '../engine/dispatch.ts';
import type { RunQueries } from '../engine/run-queries.ts';
import type { RunStore } from '../engine/store.ts';
import type { PendingReview } from '../generated/contracts.ts';
import type { TasksRepository } from '../tasks/task-rows.ts';

export interface ReviewSubject {
  kind: 'review';
  id: string;
  runId: string;
  model: string | null;
  review: PendingReview;
  /** The review is still the run's pending one. */
  waiting: boolean;
}

export interface TaskSubject {
  kind: 'task';
  id: string;
  taskType: string;
  confidence: string;
  impact: string;
  whyEscalated: string;
  submitter: string;
  waiting: boolean;
}

export type NotificationSubject = ReviewSubject | TaskSubject;

/** Where a subject is read from: the run (and the decision that closed its review), or the task. */
export interface SubjectReader {
  readonly store: Pick<RunStore, 'get'>;
  readonly runQueries: Pick<RunQueries, 'decisionsOfReview'>;
  readonly tasks: Pick<TasksRepository, 'get'>;
}

/** The subject, or undefined when it is gone (or never was this tenant's). */
export async function loadSubject(reader: SubjectReader, job: NotificationJob): Promise<NotificationSubject | undefined> {
  switch (job.subject) {
    case 'review':
      return loadReview(reader, job);
    case 'task': {
      const task = await reader.tasks.get(job.tenantId, job.subjectId);
      if (!task) return undefined;
      return {
        kind: 'task', id: task.id, taskType: task.taskType, confidence: task.confidence, impact: task.impact, whyEscalated: task.whyEscalated,
        submitter: `${task.submitter.name} (${task.submitter.role})`, waiting: task.status === 'pending',
      };
    }
  }
}

async function loadReview(reader: SubjectReader, job: NotificationJob): Promise<ReviewSubject | undefined> {
  if (!job.runId) return undefined;
  const run = await reader.store.get(job.runId, job.tenantId);
  if (!run) return undefined;
  const waiting = run.status === 'awaiting_human' && run.pendingReviewId === job.subjectId && run.pendingReview !== null;
  if (waiting && run.pendingReview) return { kind: 'review', id: job.subjectId, runId: run.id, model: run.model, review: run.pendingReview, waiting };
  const closing = (await reader.runQueries.decisionsOfReview(job.tenantId, job.subjectId)).at(-1);
  const review = closing?.decision.review;
  return review ? { kind: 'review', id: job.subjectId, runId: run.id, model: run.model, review, waiting: false } : undefined;
}
